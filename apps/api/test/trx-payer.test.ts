import { createHash, randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trxWriter } from '../src/chains/trx-writer.ts';
import {
  custody,
  loadCustodyConfig,
  type PayAttempt,
  type PayRequest,
  settleColdSweeps,
  sweepExcessToCold,
  TrxPayer,
  trxCustodySource,
} from '../src/modules/withdrawals/index.ts';
import { type FakeTron, randomTronAddress, startFakeTron, tronHex } from './fake-tron.ts';
import { createMember, fundMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The TRX payer against the fake java-tron (DECISIONS §17, §18): intents from the hot address 1/0 that
 * reference the node's head block, broadcast with java-tron's documented answers, state from
 * gettransactioninfobyid, and a replacement only once the replaced attempt expired on the chain's clock.
 *
 * The signature is a stand-in until apps/signer is merged: `raw_data_hex` here is the hex of the JSON
 * raw_data (the fake node reads `raw_data`), not java-tron's protobuf bytes the real signer produces.
 */

const root = HDKey.fromMasterSeed(Uint8Array.from({ length: 32 }, (_, i) => 100 + i));
const account = HDKey.fromExtendedKey(root.derive("m/44'/195'/0'").publicExtendedKey);
const TRX = 1_000_000n;

function standInSign(intent: Record<string, unknown>, owner: string): { signedTx: string; txid: string } {
  const raw_data = {
    contract: [
      {
        type: 'TransferContract',
        parameter: {
          type_url: 'type.googleapis.com/protocol.TransferContract',
          value: {
            owner_address: tronHex(owner),
            to_address: tronHex(String(intent.to)),
            amount: Number(intent.amountSun),
          },
        },
      },
    ],
    ref_block_bytes: intent.refBlockBytes,
    ref_block_hash: intent.refBlockHash,
    expiration: intent.expiration,
    timestamp: intent.timestamp,
  };
  const raw_data_hex = Buffer.from(JSON.stringify(raw_data)).toString('hex');
  const txid = createHash('sha256').update(Buffer.from(raw_data_hex, 'hex')).digest('hex');
  const signedTx = JSON.stringify({
    txID: txid,
    raw_data,
    raw_data_hex,
    signature: [randomBytes(65).toString('hex')],
  });
  return { signedTx, txid };
}

describe('TRX payer against the fake java-tron', () => {
  let fake: FakeTron;
  let t: TestApp;
  let payer: TrxPayer;
  let seq = 0;

  beforeAll(async () => {
    fake = await startFakeTron();
    t = await createTestApp({});
    payer = new TrxPayer({ db: t.app.deps.db, node: trxWriter(fake.url), account, confirmations: 2 });
    fake.balances.set(payer.hotAddress, 100n * TRX);
    fake.transferFeeSun = 270_000n;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const request = (address: string, units: bigint, replaces: PayAttempt | null = null): PayRequest => {
    const id = replaces ? seq : ++seq;
    return {
      requestId: `withdrawal:${id}${replaces ? ':r1' : ''}`,
      withdrawalId: id,
      address,
      destTag: null,
      units,
      replaces,
    };
  };
  const prepare = (req: PayRequest) => t.app.deps.db.transaction().execute((tx) => payer.prepare(tx, req));

  it('pays from the hot address 1/0 with the head block as reference; the recipient gets exactly the amount', async () => {
    const to = randomTronAddress();
    const prepared = await prepare(request(to, 1_250_000_000n)); // 12.5 TRX in ledger units
    const head = fake.blocks.at(-1);
    expect(prepared.intent).toMatchObject({
      fromPath: '1/0',
      to,
      amountSun: '12500000',
      refBlockHash: head?.blockID.slice(16, 32),
      refBlockBytes: (head?.block_header.raw_data.number ?? 0).toString(16).padStart(16, '0').slice(12),
    });
    const { signedTx, txid } = standInSign(prepared.intent, payer.hotAddress);
    expect(await payer.broadcast(signedTx, txid)).toEqual({ kind: 'ACCEPTED' });
    expect(await payer.broadcast(signedTx, txid)).toEqual({ kind: 'KNOWN' });
    expect(await payer.state(txid)).toEqual({ kind: 'PENDING', confirmations: 0 });
    fake.mine();
    expect(await payer.state(txid)).toEqual({ kind: 'PENDING', confirmations: 1 });
    fake.addBlock();
    expect(await payer.state(txid)).toEqual({ kind: 'CONFIRMED', confirmations: 2, feeUnits: 27_000_000n });
    expect(fake.balances.get(to)).toBe(12_500_000n);
    expect(await payer.broadcast(signedTx, txid)).toEqual({ kind: 'KNOWN' });
  });

  it('refuses an amount with more than 6 decimals and reports a refusal of the node', async () => {
    await expect(prepare(request(randomTronAddress(), 1n))).rejects.toThrow(RangeError);
    const prepared = await prepare(request(randomTronAddress(), 1_000n * 100_000_000n));
    const { signedTx, txid } = standInSign(prepared.intent, payer.hotAddress);
    const r = await payer.broadcast(signedTx, txid);
    expect(r).toMatchObject({
      kind: 'REJECTED',
      reason: expect.stringMatching(/CONTRACT_VALIDATE_ERROR.*not sufficient/),
    });
    expect(await payer.state(txid)).toEqual({ kind: 'MISSING' });
  });

  it('retries a lost attempt only after it expired, so both can never confirm', async () => {
    const to = randomTronAddress();
    const first = await prepare(request(to, 200_000_000n));
    const a = standInSign(first.intent, payer.hotAddress);
    const attempt: PayAttempt = { requestId: `withdrawal:${seq}`, reservation: first.reservation };
    await expect(prepare(request(to, 200_000_000n, attempt))).rejects.toThrow(/can still be mined/);
    for (let i = 0; i < 21; i++) fake.addBlock(); // 63 s of TRON blocks: past the 60 s expiration
    const second = await prepare(request(to, 200_000_000n, attempt));
    const b = standInSign(second.intent, payer.hotAddress);
    expect((await payer.broadcast(a.signedTx, a.txid)).kind).toBe('REJECTED');
    expect(await payer.broadcast(b.signedTx, b.txid)).toEqual({ kind: 'ACCEPTED' });
    fake.mine();
    fake.addBlock();
    expect((await payer.state(b.txid)).kind).toBe('CONFIRMED');
    expect(await payer.state(a.txid)).toEqual({ kind: 'MISSING' });
    expect(fake.balances.get(to)).toBe(2n * TRX);
  });

  it('sweeps the excess above HOT_WALLET_MAX_TRX to the cold address once and shows the cold share', async () => {
    const cold = randomTronAddress();
    expect(() =>
      loadCustodyConfig({ COLD_ADDRESS_TRX: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }, 'testnet'),
    ).toThrow(/COLD_ADDRESS_TRX/);
    const cfg = loadCustodyConfig({ HOT_WALLET_MAX_TRX: '10', COLD_ADDRESS_TRX: cold }, 'testnet');
    const node = trxWriter(fake.url);
    const source = trxCustodySource(payer.hotAddress, (a) => node.balance(a));
    const hotBefore = await source.hotBalance();
    const sign = async (r: { intent: Record<string, unknown> }) => standInSign(r.intent, payer.hotAddress);
    const deps = { cfg, payer, source, sign };
    // two instances at once: exactly one sweep
    const runs = await Promise.all([
      sweepExcessToCold(t.app.deps.db, deps),
      sweepExcessToCold(t.app.deps.db, deps),
    ]);
    expect(runs.filter((r) => r !== null)).toEqual([expect.stringMatching(/^cold:TRX:\d+$/)]);
    expect(await sweepExcessToCold(t.app.deps.db, deps)).toBeNull(); // one open sweep per coin
    fake.mine();
    fake.addBlock();
    expect(await settleColdSweeps(t.app.deps.db, payer)).toBe(1);
    const excess = hotBefore - 10n * TRX;
    expect(fake.balances.get(cold)).toBe(excess);
    expect(await source.hotBalance()).toBe(10n * TRX - fake.transferFeeSun);
    expect(await sweepExcessToCold(t.app.deps.db, deps)).toBeNull(); // below the cap now

    const m = await createMember(t);
    await fundMember(t, m.id, 'TRX', '90');
    const [row] = (await custody(t.app.deps.db, cfg, [source])).filter((r) => r.coinCode === 'TRX');
    const pct = Number((excess * 10_000n) / (90n * TRX)) / 100;
    expect(row).toMatchObject({ coldAddress: cold, liabilities: '90', coldSharePct: pct, warning: pct < 80 });
    await fundMember(t, m.id, 'TRX', '10');
    const [after] = (await custody(t.app.deps.db, cfg, [source])).filter((r) => r.coinCode === 'TRX');
    expect(after).toMatchObject({ liabilities: '100', warning: true });
  });
});
