/*
 * The listings module's front door: sell listings and their escrow, the trade list and its cache, the
 * sellers' track record, pause/resume, and its operator routes. Other modules import only this file.
 */
export { startBestListingsJob } from './best-listings.ts';
export { closeLocked } from './escrow.ts';
export { listingOpsRoutes } from './ops-routes.ts';
export { registerPauseRoutes } from './pause-routes.ts';
export { hasActiveListing, listingForPurchase, refreshListingTrades } from './queries.ts';
export {
  type LockedListing,
  lockListing,
  purgeListingAccountsOf,
  returnListingQty,
  takeListingQty,
} from './repo.ts';
export { default as listingRoutes } from './routes.ts';
export { recordEnding, toSellerStats } from './seller-stats.ts';
export { approveListing, createListing } from './service.ts';
export { startTradeListCache, type TradeListCache } from './trade-list-cache.ts';
export { iso, isoOrNull, maskName } from './views.ts';
