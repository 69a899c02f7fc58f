import type { HTMLAttributes } from 'react';
import s from './ui.module.css';

/** A white card on the grey page. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={[s.card, className ?? ''].join(' ')} {...rest} />;
}
