import type { BuyOrderCreateBody, BuyOrderCreated, SellListingDetail, TradeListing } from '@p2p/contract';
import type { PurchaseType } from './components/ListingCard';

/** Navigation state of /purchase (SPEC §2: tradeData and purchaseType from the previous screen). */
export interface PurchaseState {
  tradeData: TradeListing;
  purchaseType: PurchaseType;
}

/** Navigation state of /verify: the purchase plus the order request built on /purchase. */
export interface VerifyState extends PurchaseState {
  request: BuyOrderCreateBody;
}

/** Navigation state of /request_successfully: the receipt variant and its data. */
export type ReceiptState =
  | { kind: 'purchase'; order: BuyOrderCreated; tradeData: TradeListing; purchaseType: PurchaseType }
  | { kind: 'sell'; listing: SellListingDetail };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The /purchase state when it is usable, else null (then the screen returns to /transaction). */
export function purchaseStateOf(raw: unknown): PurchaseState | null {
  if (!isObject(raw) || !isObject(raw.tradeData)) return null;
  const d = raw.tradeData;
  const shaped =
    typeof d.listingId === 'number' &&
    typeof d.unitPriceKrw === 'number' &&
    d.unitPriceKrw > 0 &&
    typeof d.minQty === 'string' &&
    typeof d.maxQty === 'string' &&
    typeof d.coinCode === 'string';
  if (!shaped || (raw.purchaseType !== 'instant' && raw.purchaseType !== 'reserve')) return null;
  return { tradeData: d as unknown as TradeListing, purchaseType: raw.purchaseType };
}

/** The /verify state when it is usable, else null ('invalid access'). */
export function verifyStateOf(raw: unknown): VerifyState | null {
  const base = purchaseStateOf(raw);
  if (!base || !isObject(raw) || !isObject(raw.request)) return null;
  return { ...base, request: raw.request as unknown as BuyOrderCreateBody };
}

/** The receipt state when present, else null (then /request_successfully goes to /). */
export function receiptStateOf(raw: unknown): ReceiptState | null {
  if (!isObject(raw)) return null;
  if (raw.kind === 'purchase' && isObject(raw.order) && isObject(raw.tradeData))
    return raw as unknown as ReceiptState;
  if (raw.kind === 'sell' && isObject(raw.listing)) return raw as unknown as ReceiptState;
  return null;
}
