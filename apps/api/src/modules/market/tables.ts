/** Tables of the market module, declared by its migration. */
export type MarketTables = Record<never, never>;
