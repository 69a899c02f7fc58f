/** The /myinfo tab a bottom tab bar link opens (navigation state `tab`, read by MyInfoPage). */
export function myInfoTabOf(state: unknown): string | undefined {
  const tab = (state as { tab?: unknown } | null)?.tab;
  return typeof tab === 'string' ? tab : undefined;
}
