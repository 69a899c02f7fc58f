import type { DbOrTx, Tx } from '../../db/client.ts';
import type { WithdrawalTravelRuleTable } from './tables.ts';

type Insert = Omit<WithdrawalTravelRuleTable, 'created_at' | 'value_krw'> & { value_krw: number | null };

/** Stores a withdrawal's Travel Rule record in the withdrawal's transaction (DECISIONS §19). */
export async function insertTravelRule(tx: Tx, r: Insert): Promise<void> {
  await tx.insertInto('withdrawal_travel_rule').values(r).execute();
}

/** The Travel Rule records of these withdrawals (the console's views). */
export async function travelRulesOf(db: DbOrTx, transferIds: number[]) {
  if (transferIds.length === 0) return [];
  return db
    .selectFrom('withdrawal_travel_rule')
    .selectAll()
    .where('transfer_id', 'in', transferIds)
    .execute();
}

/**
 * The retention purge of a closed member (DECISIONS §19): the names in the Travel Rule records of their
 * withdrawals emptied (originator, beneficiary); the record stays beside its transfer, which the ledger
 * references, with the kind, the exchange's name, the won value and the provider's reference.
 */
export async function purgeTravelRulesOf(tx: Tx, memberId: number): Promise<void> {
  await tx
    .updateTable('withdrawal_travel_rule')
    .set({ originator_name: '', beneficiary_name: '' })
    .where('transfer_id', 'in', (q) =>
      q.selectFrom('transfers').select('id').where('member_id', '=', memberId),
    )
    .execute();
}
