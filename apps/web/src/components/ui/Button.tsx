import type { ButtonHTMLAttributes } from 'react';
import s from './ui.module.css';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'outline' | 'ghost';
  size?: 'md' | 'small';
  block?: boolean;
}

/** The one button of the app: 44 px touch target, accent primary. */
export function Button({ variant = 'primary', size = 'md', block, className, type, ...rest }: Props) {
  const cls = [s.button, s[variant], size === 'small' ? s.small : '', block ? s.block : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return <button type={type ?? 'button'} className={cls} {...rest} />;
}
