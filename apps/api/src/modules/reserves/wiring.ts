import type { Coin } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type BalanceReader, createBalanceReaders } from '../../chains/balances.ts';
import { hotAddress, xrpDepositAccount } from '../../chains/index.ts';
import { signerClientFromConfig } from '../../chains/signer-client.ts';
import type { AppDeps } from '../../deps.ts';
import { type MessageSigner, type NodeReservesOptions, nodeReserves } from './node-reserves.ts';
import { declaredReserves, firstKnown } from './repo-declarations.ts';
import type { ReservesReader } from './repo-snapshot.ts';

/** The addresses of the platform's own keys (DECISIONS §18): ETH and TRX hot 1/0, the XRP account 0/0. */
function platformAddresses(coin: Coin): ReturnType<NodeReservesOptions['platform']> {
  if (coin === 'ETH' || coin === 'TRX') return [{ address: hotAddress(coin), path: '1/0', role: 'HOT' }];
  if (coin === 'XRP') return [{ address: xrpDepositAccount(), path: '0/0', role: 'PLATFORM' }];
  return [];
}

/**
 * The reserves reader of this configuration (DECISIONS §20): the nodes' balances for each coin with
 * CHAIN_RPC_<COIN>, signed by the signer at SIGNER_URL (none when no token is configured: logged, addresses
 * counted unsigned), else the operator's declared figure. Needs the chain keys installed (app.ts does it first).
 * `balances` and `sign` replace what the configuration makes (tests).
 */
export function reservesReader(
  deps: AppDeps,
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  over: { balances?: Partial<Record<Coin, BalanceReader>>; sign?: MessageSigner | null } = {},
): ReservesReader {
  const balances = over.balances ?? createBalanceReaders(deps.config);
  let sign = over.sign;
  if (sign === undefined && Object.keys(balances).length > 0) {
    try {
      const client = signerClientFromConfig(deps.config);
      sign = (req) => client.signMessage(req);
    } catch (err) {
      log.warn(
        { err },
        'reserves: no signer configured; platform addresses are published without signatures',
      );
    }
  }
  const fromNodes = nodeReserves(deps.db, {
    balances,
    platform: platformAddresses,
    cold: deps.config.withdrawals.coldAddress,
    sign: sign ?? null,
    log,
  });
  return firstKnown(fromNodes, declaredReserves(deps.db));
}
