import { LIMITS } from '@p2p/contract/limits.ts';
import { type ToastOptions, type ToastPosition, toast } from 'react-toastify';
import { isTradingPath } from '../config/paths';

/** Toast placement of SPEC §9: 2000 ms bottom-center on trading screens, 5000 ms top-right elsewhere. */
export function toastPlacement(pathname: string): { position: ToastPosition; autoClose: number } {
  return isTradingPath(pathname)
    ? { position: 'bottom-center', autoClose: LIMITS.toastTradingMs }
    : { position: 'top-right', autoClose: LIMITS.toastDefaultMs };
}

function opts(): ToastOptions {
  return toastPlacement(window.location.pathname);
}

/** All errors and confirmations appear as toasts (SPEC §8), placed for the current screen. */
export const notify = {
  success: (msg: string) => toast.success(msg, opts()),
  error: (msg: string) => toast.error(msg, opts()),
  info: (msg: string) => toast.info(msg, opts()),
};
