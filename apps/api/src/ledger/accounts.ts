import type { Coin } from '@p2p/contract';
import type { DbOrTx } from '../db/client.ts';

export type MemberAccountKind = 'available' | 'escrow';
export type PlatformAccountKind = 'chain' | 'withdrawal_pending' | 'fees' | 'network_fee';

/** Names one ledger account (DECISIONS §4): a member's available/escrow per coin, or a platform account. */
export type AccountRef =
  | { memberId: number; coin: Coin; kind: MemberAccountKind }
  | { memberId: null; coin: Coin; kind: PlatformAccountKind };

/** Account constructors, so call sites read like the ledger they describe. */
export const account = {
  available: (memberId: number, coin: Coin): AccountRef => ({ memberId, coin, kind: 'available' }),
  escrow: (memberId: number, coin: Coin): AccountRef => ({ memberId, coin, kind: 'escrow' }),
  /** The outside world: goes negative as coins enter the platform. */
  chain: (coin: Coin): AccountRef => ({ memberId: null, coin, kind: 'chain' }),
  /** External withdrawals accepted but not yet sent on chain. */
  withdrawalPending: (coin: Coin): AccountRef => ({ memberId: null, coin, kind: 'withdrawal_pending' }),
  fees: (coin: Coin): AccountRef => ({ memberId: null, coin, kind: 'fees' }),
  /**
   * What the platform paid the network to send coins ("network-fee:<COIN>", DECISIONS §18): goes negative as
   * fees are paid, the other side of the chain account's share.
   */
  networkFee: (coin: Coin): AccountRef => ({ memberId: null, coin, kind: 'network_fee' }),
};

export function accountKey(ref: AccountRef): string {
  return `${ref.memberId ?? 'platform'}:${ref.coin}:${ref.kind}`;
}

/** The id of the account, created with balance 0 on first use. */
export async function ensureAccount(db: DbOrTx, ref: AccountRef): Promise<number> {
  const inserted = await db
    .insertInto('ledger_accounts')
    .values({ member_id: ref.memberId, coin: ref.coin, kind: ref.kind })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const q = db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('coin', '=', ref.coin)
    .where('kind', '=', ref.kind);
  const row = await (ref.memberId === null
    ? q.where('member_id', 'is', null)
    : q.where('member_id', '=', ref.memberId)
  ).executeTakeFirstOrThrow();
  return row.id;
}
