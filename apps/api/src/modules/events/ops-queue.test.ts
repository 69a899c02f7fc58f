import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletFor, fundMember } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { BTC_PRICE, btcMarket, buyBody, operator, placeOrder } from '../orders/test-kit.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The kinds of the operators' queue events (member_id null) written since `afterId`. */
async function opsKinds(afterId: number): Promise<string[]> {
  // an order's operators' event rides in its `change` row (one row per state change, 031)
  const r = await sql<{ kind: string }>`select d->>'kind' as kind from member_events e,
    lateral (select e.data as d where e.type = 'ops'
             union all select p->'d' from jsonb_array_elements(case when e.type = 'change' then e.data->'parts'
               else '[]'::jsonb end) p where p->>'t' = 'ops' and p->'m' = 'null'::jsonb) x
    where e.member_id is null and e.id > ${afterId} order by e.id`.execute(t.app.deps.db);
  return r.rows.map((x) => x.kind);
}
async function lastEventId(): Promise<number> {
  const r = await sql<{ id: number | null }>`select max(id) as id from member_events`.execute(t.app.deps.db);
  return Number(r.rows[0]?.id ?? 0);
}

describe('operator queue events (DECISIONS §12: the console updates live)', () => {
  it('a new buy order and an external withdrawal reach the operators, in the transaction of their cause', async () => {
    const op = await operator(t);
    const { buyer, id } = await btcMarket(t, op);
    let from = await lastEventId();
    const order = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(order.status).toBe(200);
    expect(await opsKinds(from)).toContain('ORDER_REQUESTED');

    from = await lastEventId();
    const wallet = await createWalletFor(t, buyer.id, 'ETH');
    await fundMember(t, buyer.id, 'ETH', '1');
    const internalOnly = await opsKinds(from);
    expect(internalOnly).not.toContain('WITHDRAWAL_PENDING'); // a deposit is not an operator's job
    const w = await t.call('POST', '/transfer/request', {
      token: buyer.token,
      body: {
        fromWalletId: wallet.id,
        destType: 'EXTERNAL',
        amount: '0.5',
        destExternalAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
        stepUp: { password: buyer.password },
      },
    });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    expect(await opsKinds(from)).toContain('WITHDRAWAL_PENDING');
  });

  it('one order state change is one live-event row and one NOTIFY, however many are told (issue 27)', async () => {
    const op = await operator(t);
    const { buyer, seller, id } = await btcMarket(t, op);
    const from = await lastEventId();
    const order = await placeOrder(t, buyer, buyBody(id, 1_000_000, BTC_PRICE, buyer.wallet.id));
    expect(order.status).toBe(200);
    const r = await sql<{ type: string; members: string[] | null; parts: { m: number | null; t: string }[] }>`
      select type, members::text[] as members, data->'parts' as parts from member_events where id > ${from}`.execute(
      t.app.deps.db,
    );
    expect(r.rows).toHaveLength(1);
    const row = r.rows[0];
    expect(row?.type).toBe('change');
    expect(row?.members).toEqual([String(buyer.id), String(seller.id)]);
    expect(row?.parts.map((p) => [p.m, p.t])).toEqual([
      [buyer.id, 'order'],
      [buyer.id, 'message'],
      [seller.id, 'order'],
      [seller.id, 'message'],
      [seller.id, 'notification'],
      [null, 'ops'],
    ]);
  });
});
