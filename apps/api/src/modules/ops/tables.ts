/** Tables of the ops module, declared by its migration. */
export type OpsTables = Record<never, never>;
