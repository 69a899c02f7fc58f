/**
 * The per-trade fee of DECISIONS §3: `bps` basis points (0..1000, config TRADE_FEE_BPS) of the order's
 * requestQty, in base units of 1e-8, rounded down so the buyer is never charged a fraction of a unit more.
 * The buyer pays it: it is kept from what the seller's escrow delivers. Pure bigint arithmetic.
 */
export function tradeFee(requestUnits: bigint, bps: number): bigint {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
    throw new RangeError(`invalid trade fee bps: ${bps}`);
  // both factors are non-negative, so bigint division (truncation) is the floor
  return (requestUnits * BigInt(bps)) / 10_000n;
}
