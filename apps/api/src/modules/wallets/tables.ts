/** Tables of the wallets module, declared by its migration. */
export type WalletTables = Record<never, never>;
