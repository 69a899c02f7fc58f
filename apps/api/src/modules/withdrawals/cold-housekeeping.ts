import { type Coin, toUnits } from '@p2p/contract';
import { ledgerToChainUnits } from '../../chains/units.ts';
import type { Config } from '../../config.ts';
import { settleColdSweeps, sweepExcessToCold } from './cold-sweeps.ts';
import type { CoinPayout } from './payers.ts';
import type { CustodyConfig, CustodySource } from './repo-cold.ts';
import { describeError, type PayoutSigner } from './signer.ts';
import type { Housekeeping } from './worker.ts';

/**
 * The coins whose hot wallet is capped by a cold sweep here: all four. ETH and XRP take a nonce / Sequence when
 * a sweep is prepared; cold-sweeps.ts keeps the withdrawal pipeline's discipline for them (one sequence space
 * under the payout lease, a refused sweep gives its nonce back, stored before sent, sent again after a restart),
 * so a sweep never holds up a withdrawal. BTC releases its outputs and TRX has no sequence.
 */
const COLD_SWEEP_COINS: ReadonlySet<Coin> = new Set<Coin>(['BTC', 'ETH', 'XRP', 'TRX']);

/**
 * A coin's housekeeping with the hot-wallet cap of DECISIONS §18 after the payer's own (deposit sweeps): the
 * broadcast cold sweeps are followed to CONFIRMED (their network fee posted) or FAILED, then what the hot keys
 * hold above HOT_WALLET_MAX_<COIN> is sent to COLD_ADDRESS_<COIN> (one open cold sweep per coin; the signer
 * pays a COLD_SWEEP only to its own COLD_ADDRESS_<COIN>), for every coin with a payout. Without both settings, or for another
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
      const sign = (req: Parameters<PayoutSigner['sign']>[0]) => signer.sign(req);
      await settleColdSweeps(ctx.db, payout.payer, { confirmations: ctx.confirmations, sign });
      const started = await sweepExcessToCold(ctx.db, {
        cfg,
        payer: payout.payer,
        source,
        sign,
        holder: ctx.holder,
      });
      if (started) ctx.log.info({ coin, requestId: started }, 'payout: hot wallet excess swept to cold');
    } catch (err) {
      ctx.log.warn({ coin, error: describeError(err) }, 'payout: cold sweep failed; next pass tries again');
    }
  };
}
