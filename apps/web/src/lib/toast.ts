import './toast.css';
import { LIMITS } from '@p2p/contract/limits.ts';
import type { ReactNode } from 'react';
import { type Id, type ToastOptions, type ToastPosition, toast } from 'react-toastify';
import { isTradingPath } from '../config/paths';

/** Toast placement of SPEC §9: 2000 ms bottom-center on trading screens, 5000 ms top-right elsewhere. */
export function toastPlacement(pathname: string): { position: ToastPosition; autoClose: number } {
  return isTradingPath(pathname)
    ? { position: 'bottom-center', autoClose: LIMITS.toastTradingMs }
    : { position: 'top-right', autoClose: LIMITS.toastDefaultMs };
}

/**
 * A toast raised this soon before a route change was raised for it ("saved" and then the next screen) and
 * goes along; anything older belongs to the screen being left (a failed login's toast never
 * follows the member home).
 */
const CARRIED_MS = 1_000;

/** The toast on screen (one at a time) and when it was raised. */
let current: { id: Id; at: number } | null = null;

function show(kind: 'success' | 'error' | 'info', msg: ReactNode): Id {
  // One toast at a time: a new message replaces the old one instead of stacking over the screen.
  if (current) toast.dismiss(current.id);
  const opts: ToastOptions = { ...toastPlacement(window.location.pathname), role: 'alert' };
  const id = toast[kind](msg, opts);
  current = { id, at: Date.now() };
  return id;
}

/** All errors and confirmations appear as toasts (SPEC §8), placed for the current screen, one at a time. */
export const notify = {
  success: (msg: string) => show('success', msg),
  error: (msg: string) => show('error', msg),
  info: (msg: string) => show('info', msg),
  /** A toast whose content is markup (a refusal with the link to its step, lib/refusal.tsx). */
  node: (content: ReactNode, kind: 'success' | 'error' | 'info' = 'info') => show(kind, content),
};

/** Called on every route change: the toast of the screen left behind goes, one raised for the new one stays. */
export function clearToastsOnNavigation(now: number = Date.now()): void {
  if (current && now - current.at > CARRIED_MS) {
    toast.dismiss(current.id);
    current = null;
  }
}
