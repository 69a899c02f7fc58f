/**
 * The key every console query starts with: a console login or logout drops them all, an action refetches
 * them, and the member app's session ending leaves them alone. A file of its own so the member app can name
 * it without loading the console chunk.
 */
export const opsQueryRoot = ['ops'] as const;
