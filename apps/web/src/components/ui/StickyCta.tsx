import type { ReactNode } from 'react';
import w from './widgets.module.css';

interface Props {
  children: ReactNode;
  /** Inside a white card (signup, modify): the bar takes the card's colour instead of the page's. */
  onCard?: boolean;
}

/**
 * The primary button of a long form, kept at the bottom of the viewport: sticky, with the
 * device's safe-area inset under it, placed last in the screen (or in the card) so at the end of the scroll
 * it sits where it always was. The page keeps a scroll padding of its height, so a focused field is scrolled
 * clear of it; the trading screens' bottom toasts sit above it (lib/toast.css).
 */
export function StickyCta({ children, onCard }: Props) {
  return (
    <div className={`${w.stickyCta} ${onCard ? w.stickyCtaOnCard : ''}`} data-testid="sticky-cta">
      {children}
    </div>
  );
}
