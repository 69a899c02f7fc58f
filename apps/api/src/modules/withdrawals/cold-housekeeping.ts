import { type Coin, toUnits } from '@p2p/contract';
import { ledgerToChainUnits } from '../../chains/units.ts';
import type { Config } from '../../config.ts';
import type { CoinPayout } from './payers.ts';
import { type CustodyConfig, type CustodySource, settleColdSweeps, sweepExcessToCold } from './repo-cold.ts';
import { describeError, type PayoutSigner } from './signer.ts';
import type { Housekeeping } from './worker.ts';

/**
 * The coins whose hot wallet is capped by a cold sweep here. ETH and XRP take a nonce / sequence when a payment
 * is prepared; a cold sweep the signer then refused would leave a gap that holds up every later withdrawal, and
 * giving it back safely is the withdrawal pipeline's job (not done for sweeps yet). BTC releases its outputs and
 * TRX has no sequence, so a failed sweep costs nothing there.
 */
const COLD_SWEEP_COINS: ReadonlySet<Coin> = new Set<Coin>(['BTC', 'TRX']);

/**
 * A coin's housekeeping with the hot-wallet cap of DECISIONS §18 after the payer's own (deposit sweeps): the
 * broadcast cold sweeps are followed to CONFIRMED (their network fee posted) or FAILED, then what the hot keys
 * hold above HOT_WALLET_MAX_<COIN> is sent to COLD_ADDRESS_<COIN> (one open cold sweep per coin; the signer
 * pays a COLD_SWEEP only to its own COLD_ADDRESS_<COIN>), for BTC and TRX. Without both settings, or for another
 * coin, the payer's own housekeeping is returned as it is. A failing cold step is logged and left for the next pass: it never holds up withdrawals.
 */
export function withColdSweeps(
  coin: Coin,
  payout: CoinPayout,
  config: Config,
  signer: PayoutSigner,
): Housekeeping | undefined {
  const max = config.withdrawals.hotMax[coin];
  const cold = config.withdrawals.coldAddress[coin];
  if (!max || !cold || !COLD_SWEEP_COINS.has(coin)) return payout.housekeeping;
  const cfg: CustodyConfig = {
    hotMax: { [coin]: toUnits(max) },
    coldAddress: { [coin]: cold },
    coldShareMinPct: config.withdrawals.coldShareMinPct,
    feeRateBtc: config.withdrawals.btcFallbackFeeRate,
  };
  // sweepExcessToCold reads chain units; the payout answers in ledger units (10^-8), enough for a cap.
  const source: CustodySource = {
    coin,
    hotBalance: async () => ledgerToChainUnits(coin, await payout.hotBalance()),
    balanceOf: async (a) => ledgerToChainUnits(coin, (await payout.balanceOf?.(a)) ?? 0n),
  };
  return async (ctx) => {
    if (payout.housekeeping) await payout.housekeeping(ctx);
    try {
      await settleColdSweeps(ctx.db, payout.payer);
      const started = await sweepExcessToCold(ctx.db, {
        cfg,
        payer: payout.payer,
        source,
        sign: (req) => signer.sign(req),
      });
      if (started) ctx.log.info({ coin, requestId: started }, 'payout: hot wallet excess swept to cold');
    } catch (err) {
      ctx.log.warn({ coin, error: describeError(err) }, 'payout: cold sweep failed; next pass tries again');
    }
  };
}
