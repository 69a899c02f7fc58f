import type { HTMLAttributes } from 'react';
import s from './ui.module.css';

/**
 * The card's class, for an element that must stay an article, a section or a link: give it this class and
 * keep only what differs (layout, a smaller padding) in the feature's own class.
 */
export const cardClassName = s.card;

/** A white card on the grey page. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={[s.card, className ?? ''].join(' ')} {...rest} />;
}
