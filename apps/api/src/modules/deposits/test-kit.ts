import type { Coin, Transfer } from '@p2p/contract';
import { createMember, createWalletFor, type FixtureMember } from '../../../test/fixtures.ts';
import type { TestApp } from '../../../test/helpers.ts';
import { account, balanceOf } from '../../ledger/index.ts';
import type { WalletRow } from '../wallets/index.ts';
import type { DepositWatcher } from './watcher.ts';

/** Shared by the deposit watcher's tests: members with wallets, reading their deposits and balances. */

/** 1 coin in the chain's unit of `decimals` decimals, times `n` (a decimal string such as '0.5'). */
export function chainAmount(n: string, decimals: number): bigint {
  const [int = '0', frac = ''] = n.split('.');
  return (
    BigInt(int) * 10n ** BigInt(decimals) + BigInt((frac.padEnd(decimals, '0') || '0').slice(0, decimals))
  );
}

export interface Depositor {
  member: FixtureMember;
  wallet: WalletRow;
}

/** A member with a wallet of `coin` (a real derived deposit address). */
export async function depositor(t: TestApp, coin: Coin): Promise<Depositor> {
  const member = await createMember(t);
  const wallet = await createWalletFor(t, member.id, coin);
  return { member, wallet };
}

/** The member's transfers of the wallet as GET /transfer answers them (newest first). */
export async function transfersOf(t: TestApp, d: Depositor): Promise<Transfer[]> {
  const r = await t.call<{ list: Transfer[] }>('GET', `/transfer?walletId=${d.wallet.id}&size=50`, {
    token: d.member.token,
  });
  if (r.status !== 200) throw new Error(`GET /transfer answered ${r.status}`);
  return r.body.returnData.list;
}

/** The member's available balance of `coin` in base units. */
export function available(t: TestApp, d: Depositor, coin: Coin): Promise<bigint> {
  return balanceOf(t.app.deps.db, account.available(d.member.id, coin));
}

/** The app's watcher of `coin` (the app was built with a reader for it). */
export function watcherOf(t: TestApp, coin: Coin): DepositWatcher {
  const w = t.app.depositWatchers.watchers.get(coin);
  if (!w) throw new Error(`no ${coin} watcher`);
  return w;
}

/** Scans until the watcher reached the node's tip (or `max` passes); throws on a pass that failed. */
export async function scanToTip(w: DepositWatcher, max = 50): Promise<void> {
  for (let i = 0; i < max; i++) {
    const r = await w.scan();
    if (r.error) throw new Error(`scan failed: ${r.error}`);
    if (!r.active) throw new Error('watcher is not active');
    if (r.caughtUp) return;
  }
  throw new Error('watcher did not reach the tip');
}
