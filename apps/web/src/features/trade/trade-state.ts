import { buyOrderCreateBody, buyOrderCreated, sellListingDetail, tradeListing } from '@p2p/contract';
import { z } from 'zod';

/** How the buyer chose to buy on the card (SPEC §2 purchaseType). */
const purchaseType = z.enum(['instant', 'reserve']);

/**
 * Navigation state of /purchase (SPEC §2: tradeData and purchaseType from the previous screen), parsed with
 * the contract's listing schema: it comes from a list card, the home carousel or a purchase resumed after
 * login (localStorage), so it is checked, not trusted.
 */
const purchaseState = z.object({
  tradeData: tradeListing.extend({ unitPriceKrw: tradeListing.shape.unitPriceKrw.positive() }),
  purchaseType,
  /** What the buyer had typed when they went on to /verify: back on /purchase the form shows it again. */
  draft: z
    .object({
      krw: z.number().int().nonnegative(),
      destType: z.enum(['INTERNAL', 'EXTERNAL']),
      address: z.string().max(200),
      reserveDate: z.string().max(10),
      reserveTime: z.string().max(5),
    })
    .optional(),
});
export type PurchaseState = z.infer<typeof purchaseState>;

/** Navigation state of /verify: the purchase plus the order request built on /purchase. */
const verifyState = purchaseState.extend({ request: buyOrderCreateBody });
export type VerifyState = z.infer<typeof verifyState>;

/** Navigation state of /request_successfully: the receipt variant and its data. */
const receiptState = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('purchase'), order: buyOrderCreated, tradeData: tradeListing, purchaseType }),
  z.object({ kind: z.literal('sell'), listing: sellListingDetail }),
]);
export type ReceiptState = z.infer<typeof receiptState>;

/** The /purchase state when it is usable, else null (then the screen returns to /transaction). */
export function purchaseStateOf(raw: unknown): PurchaseState | null {
  return purchaseState.safeParse(raw).data ?? null;
}

/** The /verify state when it is usable, else null ('invalid access'). */
export function verifyStateOf(raw: unknown): VerifyState | null {
  return verifyState.safeParse(raw).data ?? null;
}

/** The receipt state when present, else null (then /request_successfully goes to /). */
export function receiptStateOf(raw: unknown): ReceiptState | null {
  return receiptState.safeParse(raw).data ?? null;
}

/** Navigation state of /proceed: the order to release (SPEC §2). */
const proceedState = z.object({ orderId: z.number().int().positive() });

/** The order id carried to /proceed, or null (then the screen says so and goes back). */
export function orderIdOf(raw: unknown): number | null {
  return proceedState.safeParse(raw).data?.orderId ?? null;
}
