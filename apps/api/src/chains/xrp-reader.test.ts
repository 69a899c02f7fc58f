import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeRippled,
  randomXrpAddress,
  startFakeRippled,
  xrpAccountSet,
  xrpPayment,
} from '../../test/fake-rippled.ts';
import { ChainNodeError, type ChainReader } from './reader.ts';
import { xrpReader } from './xrp-reader.ts';

/** The parts of a `ledger` answer the lies below change. */
interface LedgerAnswer {
  ledger_index: number;
  ledger: {
    parent_hash: string;
    transactions: (Record<string, unknown> & { metaData: Record<string, unknown> })[];
  };
}

const tx = (r: LedgerAnswer, i: number) => r.ledger.transactions[i] ?? { metaData: {} };

const ACCOUNT = randomXrpAddress();
let node: FakeRippled;
let reader: ChainReader;

beforeAll(async () => {
  node = await startFakeRippled();
  reader = xrpReader({ url: node.url, network: 'testnet', depositAccount: ACCOUNT, timeoutMs: 1000 });
});
afterAll(() => node.close());
beforeEach(() => {
  node.mode = 'ok';
  node.rewrite = null;
  node.validatedIndex = null;
});

describe('xrpReader on validated ledgers', () => {
  it('reads the validated tip, hashes and parents of the node', async () => {
    const a = node.addLedger();
    const b = node.addLedger();
    expect(await reader.tipHeight()).toBe(b.ledger_index);
    expect(await reader.blockHash(a.ledger_index)).toBe(a.ledger_hash);
    const read = await reader.block(b.ledger_index);
    expect(read).toEqual({
      height: b.ledger_index,
      hash: b.ledger_hash,
      parentHash: a.ledger_hash,
      payments: [],
    });
    expect(node.requests.at(-1)?.params).toMatchObject({ api_version: 1, transactions: true, expand: true });
  });

  it('reports only successful XRP payments to the deposit account, with delivered_amount and the tag', async () => {
    const tagged = xrpPayment({ to: ACCOUNT, amount: '25000000', destinationTag: 4_000_000_123 });
    const untagged = xrpPayment({ to: ACCOUNT, amount: '7000000' });
    const partial = xrpPayment({
      to: ACCOUNT,
      amount: '100000000',
      delivered: '1500000',
      partial: true,
      destinationTag: 7,
    });
    const failed = xrpPayment({
      to: ACCOUNT,
      amount: '9000000',
      destinationTag: 8,
      result: 'tecPATH_PARTIAL',
    });
    const elsewhere = xrpPayment({ to: randomXrpAddress(), amount: '5000000', destinationTag: 8 });
    const token = xrpPayment({
      to: ACCOUNT,
      amount: { currency: 'USD', issuer: randomXrpAddress(), value: '10' },
      destinationTag: 8,
    });
    const l = node.addLedger([tagged, untagged, partial, failed, elsewhere, token, xrpAccountSet(ACCOUNT)]);
    const read = await reader.block(l.ledger_index);
    const byTxid = new Map(read.payments.map((p) => [p.txid, p]));
    expect(read.payments).toHaveLength(3);
    expect(byTxid.get(tagged.hash)).toEqual({
      txid: tagged.hash,
      outputIndex: 0,
      to: ACCOUNT,
      destinationTag: 4_000_000_123,
      amount: 25_000_000n,
    });
    // no tag: reported with null, the watcher holds it as UNMATCHED
    expect(byTxid.get(untagged.hash)?.destinationTag).toBeNull();
    // a partial payment credits what arrived, not Amount
    expect(byTxid.get(partial.hash)?.amount).toBe(1_500_000n);
    expect(byTxid.has(failed.hash)).toBe(false);
    expect(byTxid.has(elsewhere.hash)).toBe(false);
    expect(byTxid.has(token.hash)).toBe(false);
  });

  it('answers null for a ledger above the validated tip and refuses to read it', async () => {
    const validated = node.addLedger();
    const closed = node.addLedger([xrpPayment({ to: ACCOUNT, amount: '1000000', destinationTag: 1 })]);
    node.validatedIndex = validated.ledger_index;
    expect(await reader.tipHeight()).toBe(validated.ledger_index);
    expect(await reader.blockHash(closed.ledger_index)).toBeNull();
    expect(await reader.blockHash(closed.ledger_index + 5)).toBeNull();
    await expect(reader.block(closed.ledger_index)).rejects.toBeInstanceOf(ChainNodeError);
  });

  it('sees a ledger replaced at a height: new hash, new payments', async () => {
    const base = node.addLedger();
    const first = node.addLedger([xrpPayment({ to: ACCOUNT, amount: '3000000', destinationTag: 3 })]);
    const second = node.replaceLedger(first.ledger_index, []);
    expect(second.ledger_hash).not.toBe(first.ledger_hash);
    expect(await reader.blockHash(first.ledger_index)).toBe(second.ledger_hash);
    const read = await reader.block(first.ledger_index);
    expect(read.parentHash).toBe(base.ledger_hash);
    expect(read.payments).toEqual([]);
  });

  it('refuses a ledger the node lies about: amount, header, tree or delivered_amount', async () => {
    const pay = xrpPayment({ to: ACCOUNT, amount: '2000000', destinationTag: 11 });
    const failed = xrpPayment({
      to: ACCOUNT,
      amount: '8000000',
      destinationTag: 11,
      result: 'tecNO_DST_INSUF_XRP',
    });
    const l = node.addLedger([pay, failed]);
    const lies: ((r: LedgerAnswer) => void)[] = [
      // a bigger Amount and delivered_amount than the transaction that was hashed
      (r) => {
        tx(r, 0).Amount = '2000000000';
        (r.ledger.transactions[0]?.metaData ?? {}).delivered_amount = '2000000000';
      },
      // delivered_amount alone (no hash covers it) inflated
      (r) => {
        (r.ledger.transactions[0]?.metaData ?? {}).delivered_amount = '2000000000';
      },
      // a failed payment turned into a success
      (r) => {
        (r.ledger.transactions[1]?.metaData ?? {}).TransactionResult = 'tesSUCCESS';
        (r.ledger.transactions[1]?.metaData ?? {}).delivered_amount = '8000000';
      },
      // the payment moved to another member's tag
      (r) => {
        tx(r, 0).DestinationTag = 12;
      },
      // a header that does not hash to ledger_hash
      (r) => {
        r.ledger.parent_hash = 'AB'.repeat(32);
      },
      // another ledger than the one asked for
      (r) => {
        r.ledger_index += 1;
      },
    ];
    for (const lie of lies) {
      node.rewrite = (a) => {
        lie(a.result as unknown as LedgerAnswer);
        return a;
      };
      await expect(reader.block(l.ledger_index)).rejects.toBeInstanceOf(ChainNodeError);
    }
    node.rewrite = null;
    expect((await reader.block(l.ledger_index)).payments).toHaveLength(1);
  });

  it('throws ChainNodeError for a 500, garbage JSON, an RPC error, a missing ledger and a node that hangs', async () => {
    const l = node.addLedger();
    node.mode = 'http500';
    await expect(reader.tipHeight()).rejects.toThrow(/XRP node: .*HTTP 500/);
    node.mode = 'garbage';
    await expect(reader.block(l.ledger_index)).rejects.toThrow(/not JSON/);
    node.mode = 'hang';
    await expect(reader.blockHash(l.ledger_index)).rejects.toThrow(/no answer within 1000 ms/);
    node.mode = 'ok';
    node.rewrite = () => ({ result: { status: 'error', error: 'noNetwork', error_message: 'Not synced' } });
    await expect(reader.tipHeight()).rejects.toBeInstanceOf(ChainNodeError);
    node.rewrite = () => ({ result: { status: 'success', ledger_index: -1, validated: true } });
    await expect(reader.tipHeight()).rejects.toBeInstanceOf(ChainNodeError);
    node.rewrite = null;
    // below the tip but not in the node's history: a gap, not "not yet"
    await expect(reader.block(l.ledger_index - 1000)).rejects.toThrow(/missing from the node's history/);
  });

  it('refuses a deposit account that is not a classic address', () => {
    expect(() => xrpReader({ url: node.url, network: 'mainnet', depositAccount: 'rNotAnAddress' })).toThrow();
  });
});
