import { create } from 'zustand';

/**
 * Whether the toast container must be mounted on the landing page. Elsewhere it always is; on `/` it loads
 * (react-toastify, a lazy chunk) only once something there shows a toast (DECISIONS §16: the landing's
 * JavaScript). react-toastify queues a toast raised before its container mounts.
 */
export const useToastHost = create<{ wanted: boolean }>(() => ({ wanted: false }));

/** Shows a toast from the landing page: mounts the container and loads lib/toast on first use. */
export async function landingToast(kind: 'error' | 'info' | 'success', message: string): Promise<void> {
  useToastHost.setState({ wanted: true });
  const { notify } = await import('../lib/toast');
  notify[kind](message);
}
