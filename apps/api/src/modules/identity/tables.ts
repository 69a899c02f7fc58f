/** Tables of the identity module, declared by its migration. */
export type IdentityTables = Record<never, never>;
