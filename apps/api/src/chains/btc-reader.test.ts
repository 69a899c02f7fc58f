import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { Block } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasLitecoind, type Litecoind, startLitecoind, toLitecoinRegtestAddress } from '../../test/nodes.ts';
import { btc } from './btc.ts';
import { addressOf, btcReader } from './btc-reader.ts';
import { ChainNodeError, type ChainReader } from './reader.ts';
import bip350 from './vectors/bip350.json' with { type: 'json' };

/**
 * The Bitcoin reader (DECISIONS §17) on a real node: Litecoin Core in regtest speaks Bitcoin Core's RPC and
 * block format, and its outputs are read back as the app's `bcrt1` addresses. Then nodes that fail or lie:
 * a small HTTP server answering garbage, errors or nothing, and a proxy that alters the real node's blocks.
 */

/** A fresh member-like deposit address on regtest (P2WPKH of a random key), as the adapter derives it. */
function newAddress(): string {
  return btc.addressFromPublicKey(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true), 'regtest');
}

/** Satoshi of the node's JSON `value` (a float in coins), for cross-checks only. */
const sats = (value: number) => BigInt(value.toFixed(8).replace('.', ''));

interface VerboseBlock {
  tx: {
    txid: string;
    vin: { coinbase?: string }[];
    vout: { n: number; value: number; scriptPubKey: { addresses?: string[]; address?: string } }[];
  }[];
}

describe.skipIf(!hasLitecoind())('btcReader on Litecoin Core regtest', () => {
  let node: Litecoind;
  let reader: ChainReader;

  beforeAll(async () => {
    node = await startLitecoind();
    reader = btcReader({ url: node.url, network: 'regtest', timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('finds a payment to a bcrt1 address with its exact satoshi amount and vout', async () => {
    const to = newAddress();
    expect(to).toMatch(/^bcrt1q/);
    const txid = await node.pay(to, '1.23456789');
    const [hash] = await node.mine(1);
    const height = await node.height();

    expect(await reader.tipHeight()).toBe(height);
    expect(await reader.blockHash(height)).toBe(hash);
    expect(await reader.blockHash(height + 1)).toBeNull();
    const block = await reader.block(height);
    expect(block.height).toBe(height);
    expect(block.hash).toBe(hash);
    expect(block.parentHash).toBe(await reader.blockHash(height - 1));
    const paid = block.payments.filter((p) => p.to === to);
    expect(paid).toEqual([
      { txid, outputIndex: await node.voutOf(txid, to), to, destinationTag: null, amount: 123_456_789n },
    ]);
  });

  it('reports every addressed output the node sees, coinbase aside, in bcrt1 spelling', async () => {
    const height = await node.height();
    const block = await reader.block(height);
    const verbose = await node.rpc<VerboseBlock>('getblock', [block.hash, 2]);
    const expected = verbose.tx
      .filter((tx) => !tx.vin[0]?.coinbase)
      .flatMap((tx) =>
        tx.vout
          .filter((o) => o.value > 0)
          .map((o) => ({
            txid: tx.txid,
            outputIndex: o.n,
            rltc: o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0],
            amount: sats(o.value),
          })),
      );
    expect(expected.length).toBeGreaterThanOrEqual(2); // the payment and the change
    expect(block.payments.map((p) => ({ ...p, rltc: toLitecoinRegtestAddress(p.to) }))).toEqual(
      expected.map((e) => ({ ...e, to: expect.stringMatching(/^bcrt1/), destinationTag: null })),
    );
  });

  it('reports each of several outputs of one transaction', async () => {
    const a1 = newAddress();
    const a2 = newAddress();
    const b = newAddress();
    const txid = await node.payMany({ [a1]: '0.1', [a2]: '0.00123457', [b]: '2.5' });
    await node.mine(1);
    const block = await reader.block(await node.height());
    const ours = block.payments.filter((p) => [a1, a2, b].includes(p.to));
    expect(new Set(ours.map((p) => p.outputIndex)).size).toBe(3);
    expect(ours.every((p) => p.txid === txid)).toBe(true);
    for (const [to, amount] of [
      [a1, 10_000_000n],
      [a2, 123_457n],
      [b, 250_000_000n],
    ] as const) {
      expect(ours.find((p) => p.to === to)).toEqual({
        txid,
        outputIndex: await node.voutOf(txid, to),
        to,
        destinationTag: null,
        amount,
      });
    }
  });

  it('sees another block at the height after invalidateblock, without the double-spent payment', async () => {
    const to = newAddress();
    const txid = await node.pay(to, '0.75');
    const [first] = await node.mine(1);
    const height = await node.height();
    expect((await reader.block(height)).payments.some((p) => p.txid === txid && p.to === to)).toBe(true);

    await node.invalidateBlock(first ?? '');
    expect(await reader.tipHeight()).toBe(height - 1);
    expect(await reader.blockHash(height)).toBeNull();
    await expect(reader.block(height)).rejects.toThrow(ChainNodeError);

    const replacement = await node.doubleSpend(txid);
    const [second] = await node.mine(1);
    expect(await reader.blockHash(height)).toBe(second);
    expect(second).not.toBe(first);
    const block = await reader.block(height);
    expect(block.parentHash).toBe(await reader.blockHash(height - 1));
    expect(block.payments.some((p) => p.txid === txid)).toBe(false);
    expect(block.payments.some((p) => p.to === to)).toBe(false);
    expect(block.payments.some((p) => p.txid === replacement)).toBe(true);
  });

  it('refuses wrong credentials', async () => {
    const url = new URL(node.url);
    url.password = 'wrong';
    const bad = btcReader({ url: url.toString(), network: 'regtest' });
    await expect(bad.tipHeight()).rejects.toThrow(ChainNodeError);
    await expect(bad.tipHeight()).rejects.toThrow(/HTTP 401/);
  });

  describe('a proxy that alters the node’s blocks', () => {
    let proxy: Server;
    let tamper: (hex: string, hash: string) => Promise<string>;

    beforeAll(async () => {
      const upstream = new URL(node.url);
      const auth = `Basic ${btoa(`${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`)}`;
      proxy = await listen(async (req, res) => {
        const body = await readBody(req);
        const r = await fetch(upstream.origin, { method: 'POST', headers: { authorization: auth }, body });
        const answer = (await r.json()) as { result: unknown; id: unknown };
        const call = JSON.parse(body) as { method: string; params: unknown[] };
        if (call.method === 'getblock' && typeof answer.result === 'string') {
          answer.result = await tamper(answer.result, String(call.params[0]));
        }
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

    async function readThrough(): Promise<ChainReader> {
      await node.pay(newAddress(), '0.2');
      await node.mine(1);
      return btcReader({ url: urlOf(proxy), network: 'regtest' });
    }

    it('refuses a block whose output value was changed (merkle root)', async () => {
      const r = await readThrough();
      tamper = async (hex) => {
        const block = Block.fromHex(hex);
        const tx = block.transactions?.[1];
        if (!tx?.outs[0]) throw new Error('no payment to alter');
        tx.outs[0].value += 100_000_000n;
        return block.toHex();
      };
      await expect(r.block(await node.height())).rejects.toThrow(/merkle root/);
    });

    it('refuses another block than the one asked for, and bytes after the block', async () => {
      const r = await readThrough();
      tamper = async (_hex, hash) => {
        const header = await node.rpc<{ previousblockhash: string }>('getblockheader', [hash, true]);
        return node.rpc<string>('getblock', [header.previousblockhash, 0]);
      };
      await expect(r.block(await node.height())).rejects.toThrow(/hash to/);
      tamper = async (hex) => `${hex}00`;
      await expect(r.block(await node.height())).rejects.toThrow(/after the last transaction/);
      tamper = async (hex) => hex.slice(0, 200);
      await expect(r.block(await node.height())).rejects.toThrow(/not a block/);
      tamper = async (hex) => hex;
      expect((await r.block(await node.height())).payments.length).toBeGreaterThan(0);
    });
  });
});

describe.skipIf(!hasLitecoind())('btcReader on a pruned node without txindex', () => {
  let node: Litecoind;
  beforeAll(async () => {
    node = await startLitecoind({ args: ['-prune=550', '-txindex=0'] });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('reads new blocks: it needs neither old blocks nor a transaction index', async () => {
    const info = await node.rpc<{ pruned: boolean }>('getblockchaininfo');
    expect(info.pruned).toBe(true);
    await expect(node.rpc('getindexinfo')).resolves.toEqual({});
    const to = newAddress();
    const txid = await node.pay(to, '0.3');
    await node.mine(1);
    const reader = btcReader({ url: node.url, network: 'regtest' });
    const block = await reader.block(await reader.tipHeight());
    expect(block.payments.filter((p) => p.to === to)).toEqual([
      { txid, outputIndex: await node.voutOf(txid, to), to, destinationTag: null, amount: 30_000_000n },
    ]);
  });
});

describe('addressOf: an output script as an address of the app network', () => {
  const script = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

  it('encodes the BIP-350 vectors on their network, and nothing for unknown witness versions', () => {
    for (const v of bip350.validAddresses) {
      const network = v.address.toLowerCase().startsWith('tb') ? 'testnet' : 'mainnet';
      const version = Number.parseInt(v.scriptPubKey.slice(0, 2), 16);
      const known = version === 0 || (version === 0x51 && v.scriptPubKey.length === 68);
      const got = addressOf(script(v.scriptPubKey), network);
      // A taproot output whose key is not on the curve has no key-path spender: it is left out.
      if (known && got !== null) expect(got, v.address).toBe(v.address.toLowerCase());
      if (version === 0) expect(got, v.address).not.toBeNull();
      if (!known) expect(got, v.address).toBeNull();
    }
    const p2tr = '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
    expect(addressOf(script(p2tr), 'mainnet')).toBe(
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    );
  });

  it('encodes base58 outputs with the network versions and the same program under each prefix', () => {
    const p2pkh = '76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac'; // the genesis coinbase's key hash
    expect(addressOf(script(p2pkh), 'mainnet')).toBe('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    expect(addressOf(script(p2pkh), 'regtest')).toMatch(/^[mn]/);
    expect(addressOf(script('a914751e76e8199196d454941c45d1b3a323f1433bd687'), 'regtest')).toMatch(/^2/);
    const p2wpkh = '0014751e76e8199196d454941c45d1b3a323f1433bd6';
    expect(addressOf(script(p2wpkh), 'regtest')).toBe('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
  });

  it('has no address for OP_RETURN, P2PK, bare multisig or garbage', () => {
    const pk = '0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798';
    for (const hex of ['6a0568656c6c6f', `21${pk}ac`, `5121${pk}51ae`, '4c', '']) {
      expect(addressOf(script(hex), 'mainnet'), hex).toBeNull();
    }
  });
});

describe('btcReader against a node that fails', () => {
  let server: Server;
  let answer: (body: { method: string; id: unknown; params: unknown[] }, res: ServerResponse) => void;
  let seenAuth: string | undefined;

  beforeAll(async () => {
    server = await listen(async (req, res) => {
      seenAuth = req.headers.authorization;
      answer(JSON.parse(await readBody(req)), res);
    });
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );

  const reader = (timeoutMs = 2000) =>
    btcReader({ url: urlOf(server).replace('//', '//alice:s%3Acret@'), network: 'regtest', timeoutMs });
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  it('sends the URL credentials as Basic auth and reads a good answer', async () => {
    answer = (b, res) => json(res, 200, { result: 7, error: null, id: b.id });
    expect(await reader().tipHeight()).toBe(7);
    expect(seenAuth).toBe(`Basic ${btoa('alice:s:cret')}`);
  });

  it('throws ChainNodeError for garbage, HTML 500s, errors and malformed results', async () => {
    const cases: [string, typeof answer][] = [
      ['garbage', (_b, res) => res.writeHead(200).end('{"result": 7, "err')],
      ['HTML 500', (_b, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>')],
      ['empty 502', (_b, res) => res.writeHead(502).end()],
      [
        'JSON-RPC error',
        (b, res) => json(res, 500, { result: null, error: { code: -1, message: 'boom' }, id: b.id }),
      ],
      ['a string height', (b, res) => json(res, 200, { result: '7', error: null, id: b.id })],
      ['a negative height', (b, res) => json(res, 200, { result: -1, error: null, id: b.id })],
      ['a fractional height', (b, res) => json(res, 200, { result: 7.5, error: null, id: b.id })],
      ['another request’s id', (b, res) => json(res, 200, { result: 7, error: null, id: Number(b.id) + 1 })],
      ['a result with HTTP 500', (b, res) => json(res, 500, { result: 7, error: null, id: b.id })],
      ['an array', (_b, res) => json(res, 200, [1, 2, 3])],
    ];
    for (const [name, a] of cases) {
      answer = a;
      await expect(reader().tipHeight(), name).rejects.toThrow(ChainNodeError);
    }
  });

  it('throws ChainNodeError for a hash that is not a hash, and a block that is not hex', async () => {
    answer = (b, res) => json(res, 200, { result: 'zz'.repeat(32), error: null, id: b.id });
    await expect(reader().blockHash(1)).rejects.toThrow(/unexpected result/);
    answer = (b, res) => json(res, 200, { result: 'AB'.repeat(32), error: null, id: b.id });
    await expect(reader().blockHash(1)).rejects.toThrow(ChainNodeError);
    answer = (b, res) =>
      json(res, 200, {
        result: b.method === 'getblockhash' ? 'ab'.repeat(32) : 'not hex',
        error: null,
        id: b.id,
      });
    await expect(reader().block(1)).rejects.toThrow(/getblock.*unexpected result/);
    // Out of range is the one error that means "no block there".
    answer = (b, res) =>
      json(res, 500, { result: null, error: { code: -8, message: 'Block height out of range' }, id: b.id });
    expect(await reader().blockHash(99)).toBeNull();
    await expect(reader().block(99)).rejects.toThrow(/no block at height 99/);
  });

  it('gives up on a node that does not answer, or stops halfway, within the timeout', async () => {
    answer = () => {}; // never answers
    await expect(reader(300).tipHeight()).rejects.toThrow(/no answer within 300 ms/);
    answer = (_b, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"result": '); // and then nothing
    };
    await expect(reader(300).tipHeight()).rejects.toThrow(/no answer within 300 ms/);
  });

  it('throws ChainNodeError when nothing listens, and RangeError for a bad height', async () => {
    const closed = await listen(() => {});
    const url = urlOf(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(btcReader({ url, network: 'regtest' }).tipHeight()).rejects.toThrow(ChainNodeError);
    await expect(reader().blockHash(-1)).rejects.toThrow(RangeError);
    await expect(reader().block(1.5)).rejects.toThrow(RangeError);
  });
});

function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<Server> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((err) => res.writeHead(599).end(String(err)));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
