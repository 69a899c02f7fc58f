import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeTron,
  randomTronAddress,
  startFakeTron,
  tronAssetTransfer,
  tronTransfer,
} from '../../test/fake-tron.ts';
import { evmAccountId } from './eth.ts';
import { ChainNodeError, type ChainReader } from './reader.ts';
import { trx } from './trx.ts';
import { tronAddress, trxReader } from './trx-reader.ts';
import tron from './vectors/tron.json' with { type: 'json' };

/** The parts of a block answer the lies below change. */
interface BlockAnswer {
  blockID: string;
  block_header: { raw_data: { number: number; parentHash: string } };
  transactions: { raw_data: { contract: { parameter: { value: Record<string, unknown> } }[] } }[];
}
/** The value of the first transaction's contract. */
const value = (blk: BlockAnswer) => blk.transactions[0]?.raw_data.contract[0]?.parameter.value ?? {};

let node: FakeTron;
let reader: ChainReader;

beforeAll(async () => {
  node = await startFakeTron();
  reader = trxReader({ url: node.url, network: 'mainnet', timeoutMs: 1000, apiKey: 'k-123' });
});
afterAll(() => node.close());
beforeEach(() => {
  node.mode = 'ok';
  node.rewrite = null;
});

describe('trxReader on java-tron HTTP', () => {
  it('reads the head, hashes and parents, with the API key header', async () => {
    const a = node.addBlock();
    const b = node.addBlock();
    const height = b.block_header.raw_data.number ?? 0;
    expect(await reader.tipHeight()).toBe(height);
    expect(await reader.blockHash(height - 1)).toBe(a.blockID);
    expect(await reader.blockHash(height + 1)).toBeNull();
    expect(await reader.block(height)).toEqual({
      height,
      hash: b.blockID,
      parentHash: a.blockID,
      payments: [],
    });
    const last = node.requests.at(-1);
    expect(last?.path).toBe('/wallet/getblockbynum');
    expect(last?.body).toEqual({ num: height });
    expect(last?.headers['tron-pro-api-key']).toBe('k-123');
    await expect(reader.block(height + 1)).rejects.toBeInstanceOf(ChainNodeError);
  });

  it("sends the URL's credentials as Basic auth, never in the URL", async () => {
    const url = new URL(node.url);
    url.username = 'watcher';
    url.password = 'p@ss:word';
    const withAuth = trxReader({ url: url.toString(), network: 'mainnet', timeoutMs: 1000 });
    expect(await withAuth.tipHeight()).toBe(node.blocks.at(-1)?.block_header.raw_data.number);
    const last = node.requests.at(-1);
    expect(last?.headers.authorization).toBe(`Basic ${Buffer.from('watcher:p@ss:word').toString('base64')}`);
    expect(last?.headers['tron-pro-api-key']).toBeUndefined();
  });

  it('reports successful TransferContracts only, to base58 addresses, in sun, exactly beyond 2^53', async () => {
    const member = randomTronAddress();
    const ok = tronTransfer({ to: member, sun: 12_345_678 });
    const failed = tronTransfer({ to: member, sun: 5_000_000, result: 'OUT_OF_ENERGY' });
    const token = tronAssetTransfer({ to: member, sun: 99 });
    const whale = tronTransfer({ to: randomTronAddress(), sun: 9_007_199_254_740_993n });
    const b = node.addBlock([ok, failed, token, whale]);
    const read = await reader.block(b.block_header.raw_data.number ?? 0);
    expect(read.payments).toEqual([
      { txid: ok.txID, outputIndex: 0, to: member, destinationTag: null, amount: 12_345_678n },
      {
        txid: whale.txID,
        outputIndex: 0,
        to: expect.stringMatching(/^T/),
        destinationTag: null,
        amount: 9_007_199_254_740_993n,
      },
    ]);
    expect(trx.isValidAddress(read.payments[1]?.to ?? '', 'mainnet')).toBe(true);
  });

  it('sees a block replaced at a height', async () => {
    const member = randomTronAddress();
    node.addBlock();
    const first = node.addBlock([tronTransfer({ to: member, sun: 1_000_000 })]);
    const height = first.block_header.raw_data.number ?? 0;
    const second = node.replaceBlock(height, []);
    expect(await reader.blockHash(height)).toBe(second.blockID);
    expect((await reader.block(height)).payments).toEqual([]);
    expect(await reader.tipHeight()).toBe(height);
  });

  it('refuses blocks that do not hold together', async () => {
    const b = node.addBlock([tronTransfer({ to: randomTronAddress(), sun: 1 })]);
    const height = b.block_header.raw_data.number ?? 0;
    const lies: ((blk: BlockAnswer) => void)[] = [
      (blk) => {
        blk.block_header.raw_data.number = height + 1;
      },
      (blk) => {
        blk.blockID = `${'f'.repeat(16)}${blk.blockID.slice(16)}`;
      },
      (blk) => {
        blk.block_header.raw_data.parentHash = `${'0'.repeat(16)}${'a'.repeat(48)}`;
      },
      (blk) => {
        value(blk).amount = -5;
      },
      (blk) => {
        value(blk).to_address = 'TXYZ';
      },
      (blk) => {
        value(blk).amount = 1.5;
      },
      (blk) => {
        const contracts = blk.transactions[0]?.raw_data.contract ?? [];
        contracts.push({ parameter: { value: { ...value(blk) } } });
      },
    ];
    for (const lie of lies) {
      node.rewrite = (a) => {
        lie(a as unknown as BlockAnswer);
        return a;
      };
      await expect(reader.block(height)).rejects.toBeInstanceOf(ChainNodeError);
    }
  });

  it('throws ChainNodeError for a 500, garbage, a hanging node', async () => {
    node.mode = 'http500';
    await expect(reader.tipHeight()).rejects.toThrow(/TRX node: .*HTTP 500/);
    node.mode = 'garbage';
    await expect(reader.tipHeight()).rejects.toThrow(/not JSON/);
    node.mode = 'hang';
    await expect(reader.block(1)).rejects.toThrow(/no answer within 1000 ms/);
  });

  it('spells hex addresses as base58check T... (wallet-core vectors)', () => {
    for (const v of tron.keyToAddress) {
      const publicKey = secp256k1.getPublicKey(hexToBytes(v.privateKey.toLowerCase()), true);
      expect(tronAddress(`41${bytesToHex(evmAccountId(publicKey))}`)).toBe(v.address);
      expect(tronAddress(`41${bytesToHex(evmAccountId(publicKey)).toUpperCase()}`)).toBe(v.address);
    }
  });
});
