import { type OpsWithdrawal, type Transfer, toSignedUnits, type Wallet } from '@p2p/contract';
import { type Address, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type FixtureMember, runLedgerCheck } from '../../../test/fixtures.ts';
import { createTestApp, onPostgres, type TestApp } from '../../../test/helpers.ts';
import { type Anvil, startAnvil } from '../../../test/nodes.ts';
import { startSigner, type TestSigner } from '../../../test/signer.ts';
import { account, balanceOf } from '../../ledger/index.ts';

/*
 * DECISIONS §18 on a real Ethereum node (Anvil): a member's deposit is credited and swept to the hot address
 * (1/0), a small withdrawal approves itself and is paid with no operator, a large one waits for an operator's
 * approval, parallel approvals have one winner, a signer refusal leaves the withdrawal APPROVED with its reason
 * and no nonce gap, and bad input writes nothing. The signer is the real one (apps/signer, its own process on
 * the public TEST seed, SIGNER_MAX_TX_ETH 0.6), found through SIGNER_URL / SIGNER_TOKEN as in production; the
 * payout worker's passes are driven by the test.
 */

let anvil: Anvil;
let t: TestApp;
let signer: TestSigner;
let member: FixtureMember;
let op: FixtureMember;
let wallet: Wallet;

const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

async function pass(): Promise<void> {
  const w = t.app.payouts.workers.get('ETH');
  if (!w) throw new Error('no ETH payout worker');
  const r = await w.pass();
  expect(r.error).toBeUndefined();
}

async function withdraw(to: string, amount: string) {
  return t.call<Transfer>('POST', '/transfer/request', {
    token: member.token,
    body: {
      fromWalletId: wallet.id,
      destType: 'EXTERNAL',
      destExternalAddress: to,
      amount,
      stepUp: { password: member.password },
    },
  });
}

async function opRow(id: number): Promise<OpsWithdrawal> {
  for (const status of ['PENDING', 'APPROVED', 'BROADCAST', 'COMPLETED', 'FAILED', 'REJECTED'] as const) {
    const r = await t.call<{ list: OpsWithdrawal[] }>(
      'GET',
      `/ops/api/v1/withdrawals?status=${status}&size=50`,
      {
        token: op.token,
      },
    );
    const found = r.body.returnData.list.find((w) => w.withdrawalId === id);
    if (found) return found;
  }
  throw new Error(`withdrawal ${id} not listed`);
}

async function balance(address: Address): Promise<bigint> {
  return anvil.client.getBalance({ address });
}

beforeAll(async () => {
  anvil = await startAnvil();
  signer = await startSigner({ env: { CHAIN_NETWORK: 'testnet', SIGNER_MAX_TX_ETH: '0.6' } });
  t = await createTestApp(
    {
      ...signer.apiEnv,
      CHAIN_RPC_ETH: anvil.url,
      CHAIN_CONFIRMATIONS_ETH: '1',
      CHAIN_START_HEIGHT_ETH: String((await anvil.height()) + 1),
      WITHDRAW_AUTO_MAX_ETH: '0.5',
      EXPLORER_TX_URL_ETH: 'https://etherscan.io/tx/{txid}',
    },
    { startPayouts: false, startWatchers: false },
  );
  member = await createMember(t);
  op = await createMember(t, { role: 'OPERATOR' });
  const created = await t.call<Wallet>('POST', '/api/v1/wallets/create', {
    token: member.token,
    body: { coinCode: 'ETH' },
  });
  wallet = created.body.returnData;
  // A deposit from outside, credited by the watcher at 1 confirmation, then swept to the hot address.
  await anvil.pay(wallet.address as Address, parseEther('3'));
  const scan = await t.app.depositWatchers.watchers.get('ETH')?.scan();
  expect(scan?.error).toBeUndefined();
  await pass();
  await pass();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await signer?.stop();
  await anvil?.stop();
});

describe('ETH withdrawals on Anvil', () => {
  it('swept the credited deposit to the hot address and posted the sweep fee', async () => {
    const hot = t.app.payouts.payouts.get('ETH')?.hotAddress as Address;
    expect(await balance(hot)).toBeGreaterThan(parseEther('2.99'));
    expect(await balance(wallet.address as Address)).toBeLessThan(parseEther('0.01'));
    expect(await balanceOf(t.app.deps.db, account.networkFee('ETH'))).toBeLessThan(0n);
    await t.assertLedger();
  });

  it('pays a small withdrawal with no operator: the recipient gets exactly the amount', async () => {
    // another Anvil account, as a new user would withdraw to their own wallet
    const to = anvil.accounts[1] as Address;
    const had = await balance(to);
    const r = await withdraw(to, '0.1');
    expect(r.status).toBe(200);
    const id = r.body.returnData.transferId;
    await pass();
    const sent = await opRow(id);
    expect(sent.status).toBe('BROADCAST');
    expect(sent.approvedBy).toBeNull();
    expect(sent.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.explorerUrl).toBe(`https://etherscan.io/tx/${sent.txid}`);
    await pass();
    expect((await opRow(id)).status).toBe('COMPLETED');
    expect(await balance(to)).toBe(had + parseEther('0.1'));
    const list = await t.call<{ list: Transfer[] }>('GET', `/transfer?walletId=${wallet.id}&size=20`, {
      token: member.token,
    });
    // the member sees 완료 with the txid the chain has and its explorer link
    const mine = list.body.returnData.list.find((x) => x.transferId === id);
    expect(mine).toMatchObject({ status: 'COMPLETED', txid: sent.txid, explorerUrl: sent.explorerUrl });
    const receipt = await anvil.client.getTransactionReceipt({ hash: sent.txid as `0x${string}` });
    expect([receipt.status, receipt.to?.toLowerCase()]).toEqual(['success', to.toLowerCase()]);
    const notes = await t.app.deps.db
      .selectFrom('notifications')
      .select('kind')
      .where('member_id', '=', member.id)
      .where('kind', '=', 'WITHDRAWAL_COMPLETED')
      .execute();
    expect(notes).toHaveLength(1);
    await t.assertLedger();
  });

  it('holds one above the automatic limit for an operator, then pays it once approved', async () => {
    const to = freshAddress();
    const r = await withdraw(to, '0.55');
    const id = r.body.returnData.transferId;
    await pass();
    expect((await opRow(id)).status).toBe('PENDING');
    expect(await balance(to)).toBe(0n);
    const ok = await t.call<OpsWithdrawal>('POST', `/ops/api/v1/withdrawals/${id}/approve`, {
      token: op.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.returnData.status).toBe('APPROVED');
    expect(ok.body.returnData.approvedBy).toBe(op.id);
    const again = await t.call('POST', `/ops/api/v1/withdrawals/${id}/approve`, { token: op.token });
    expect(again.status).toBe(409);
    await pass();
    await pass();
    expect((await opRow(id)).status).toBe('COMPLETED');
    expect(await balance(to)).toBe(parseEther('0.55'));
    await t.assertLedger();
  });

  it.runIf(onPostgres)('parallel approvals have exactly one winner and one audit record', async () => {
    const r = await withdraw(freshAddress(), '0.51');
    const id = r.body.returnData.transferId;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('POST', `/ops/api/v1/withdrawals/${id}/approve`, { token: op.token }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    const audits = await t.app.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'withdrawal.approve')
      .where('target_id', '=', String(id))
      .execute();
    expect(audits).toHaveLength(1);
    await pass();
    await pass();
    expect((await opRow(id)).status).toBe('COMPLETED');
  });

  it('a signer refusal leaves the withdrawal APPROVED with its reason, nothing sent, no nonce lost', async () => {
    const to = freshAddress();
    const r = await withdraw(to, '0.7');
    const id = r.body.returnData.transferId;
    await t.call('POST', `/ops/api/v1/withdrawals/${id}/approve`, { token: op.token });
    await pass();
    const stuck = await opRow(id);
    expect(stuck.status).toBe('APPROVED');
    expect(stuck.lastError).toContain('SIGNER_LIMIT_TX');
    expect(stuck.attempts).toBe(0);
    expect(await balance(to)).toBe(0n);
    // the next withdrawal takes the nonce the refused one gave back, so it confirms
    const next = freshAddress();
    const n = await withdraw(next, '0.01');
    await pass();
    await pass();
    expect((await opRow(n.body.returnData.transferId)).status).toBe('COMPLETED');
    expect(await balance(next)).toBe(parseEther('0.01'));
    // the operator rejects the refused one: refunded, nothing paid
    const before = await balanceOf(t.app.deps.db, account.available(member.id, 'ETH'));
    const rej = await t.call<OpsWithdrawal>('POST', `/ops/api/v1/withdrawals/${id}/reject`, {
      token: op.token,
      body: { reason: 'above the signer limit' },
    });
    expect(rej.body.returnData.status).toBe('REJECTED');
    expect(await balanceOf(t.app.deps.db, account.available(member.id, 'ETH'))).toBe(before + 70_000_000n);
    await t.assertLedger();
  });

  it('the ledger check compares what the ledger says is on chain with the addresses on the node', async () => {
    type Check = {
      ok: boolean;
      chains?: { coinCode: string; ledger: string; onChain: string | null; difference: string | null }[];
    };
    await runLedgerCheck(t);
    const r = await t.call<Check>('GET', '/ops/api/v1/ledger/check', { token: op.token });
    expect(r.status).toBe(200);
    expect(r.body.returnData.ok).toBe(true);
    const eth = r.body.returnData.chains?.find((c) => c.coinCode === 'ETH');
    expect(eth?.onChain).not.toBeNull();
    // only the dust of rounding each fee up to 10^-8 ETH and the sweep's unused gas: well below 0.001 ETH
    const diff = toSignedUnits(eth?.difference ?? 'missing');
    expect(diff).toBeGreaterThanOrEqual(0n);
    expect(diff).toBeLessThan(100_000n);
  });

  it('refuses bad input with a clear code and writes nothing', async () => {
    const count = async () =>
      (await t.app.deps.db.selectFrom('transfers').select('id').where('member_id', '=', member.id).execute())
        .length;
    const before = await count();
    const available = await balanceOf(t.app.deps.db, account.available(member.id, 'ETH'));
    const btc = await withdraw('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', '0.01');
    expect([btc.status, btc.body.returnMessage]).toEqual([400, 'INVALID_ADDRESS']);
    const decimals = await withdraw(freshAddress(), '0.0000001');
    expect([decimals.status, decimals.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    const tag = await t.call('POST', '/transfer/request', {
      token: member.token,
      body: {
        fromWalletId: wallet.id,
        destType: 'EXTERNAL',
        destExternalAddress: freshAddress(),
        amount: '0.01',
        destTag: 2 ** 32,
        stepUp: { password: member.password },
      },
    });
    expect([tag.status, tag.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    const negativeTag = await t.call('POST', '/transfer/request', {
      token: member.token,
      body: {
        fromWalletId: wallet.id,
        destType: 'EXTERNAL',
        destExternalAddress: freshAddress(),
        amount: '0.01',
        destTag: -1,
        stepUp: { password: member.password },
      },
    });
    expect([negativeTag.status, negativeTag.body.returnMessage]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await count()).toBe(before);
    expect(await balanceOf(t.app.deps.db, account.available(member.id, 'ETH'))).toBe(available);
  });
});
