import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORWARDER_BYTECODE,
  forwardAfterRevertCall,
  forwardCall,
  payThenRevertCall,
} from '../../test/forwarder.ts';
import { type Anvil, startAnvil } from '../../test/nodes.ts';
import { eth } from './eth.ts';
import { ethReader } from './eth-reader.ts';
import { ChainNodeError, type ChainPayment, type ChainReader } from './reader.ts';

/**
 * The Ethereum reader (DECISIONS §17) on Anvil: plain transfers, ETH paid by a contract found through the
 * callTracer, reverted calls left out, a reorg by evm_snapshot/evm_revert; a node without the debug
 * namespace (a proxy refusing debug_*), and nodes that fail or lie.
 */

/** A fresh member-like deposit address (EIP-55), as the adapter derives it. */
function newAddress(): Address {
  return eth.addressFromPublicKey(
    secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
    'regtest',
  ) as Address;
}

const ETHER = 10n ** 18n;

describe('ethReader on Anvil', () => {
  let anvil: Anvil;
  let reader: ChainReader;
  let forwarder: Address;

  /** Sends a transaction from the first dev account; resolves with its hash and the block it is in. */
  async function send(tx: { to: Address; value: bigint; data?: Hex; gas?: bigint }) {
    const account = anvil.accounts[0] as Address;
    const hash = await anvil.client.sendTransaction({ account, chain: null, ...tx });
    const receipt = await anvil.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    return { hash, height: Number(receipt.blockNumber), status: receipt.status };
  }

  const of = (payments: ChainPayment[], txid: string) => payments.filter((p) => p.txid === txid);

  beforeAll(async () => {
    anvil = await startAnvil();
    reader = ethReader({ url: anvil.url, network: 'regtest' });
    forwarder = await anvil.deploy(FORWARDER_BYTECODE);
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('finds a plain transfer at output index 0 with its exact wei, in EIP-55', async () => {
    const to = newAddress();
    const amount = 1n * ETHER + 234_567_890_123_456_789n;
    const { hash, height } = await send({ to: to.toLowerCase() as Address, value: amount });
    expect(await reader.tipHeight()).toBe(height);
    const block = await reader.block(height);
    const onChain = await anvil.client.getBlock({ blockNumber: BigInt(height) });
    expect(block.hash).toBe(onChain.hash);
    expect(block.parentHash).toBe(onChain.parentHash);
    expect(await reader.blockHash(height)).toBe(onChain.hash);
    expect(await reader.blockHash(height + 1)).toBeNull();
    expect(of(block.payments, hash)).toEqual([
      { txid: hash, outputIndex: 0, to, destinationTag: null, amount },
    ]);
    expect(to).toBe(eth.normalizeAddress(to.toLowerCase()));
  });

  it('finds ETH that a contract forwards, through the call tracer', async () => {
    const to = newAddress();
    const amount = 3n * ETHER + 7n;
    const { hash, height } = await send({ to: forwarder, value: amount, data: forwardCall(to) });
    const payments = of((await reader.block(height)).payments, hash);
    expect(payments).toEqual([
      { txid: hash, outputIndex: 0, to: eth.normalizeAddress(forwarder), destinationTag: null, amount },
      { txid: hash, outputIndex: 1, to, destinationTag: null, amount },
    ]);
  });

  it('leaves out a payment made inside a reverted call, and every payment of a failed transaction', async () => {
    const lost = newAddress();
    const kept = newAddress();
    const ok = await send({ to: forwarder, value: 1001n, data: forwardAfterRevertCall(lost, kept) });
    expect(ok.status).toBe('success');
    expect(await anvil.client.getBalance({ address: lost })).toBe(0n);
    expect(await anvil.client.getBalance({ address: kept })).toBe(501n);
    const payments = of((await reader.block(ok.height)).payments, ok.hash);
    // 0: the transaction, 1: the reverted call to itself, 2: its payment to `lost`, 3: the payment to `kept`.
    expect(payments).toEqual([
      {
        txid: ok.hash,
        outputIndex: 0,
        to: eth.normalizeAddress(forwarder),
        destinationTag: null,
        amount: 1001n,
      },
      { txid: ok.hash, outputIndex: 3, to: kept, destinationTag: null, amount: 501n },
    ]);

    const failed = await send({ to: forwarder, value: 5n, data: payThenRevertCall(lost), gas: 200_000n });
    expect(failed.status).toBe('reverted');
    expect(of((await reader.block(failed.height)).payments, failed.hash)).toEqual([]);
  });

  it('sees another block at the height after evm_revert and a new block', async () => {
    const snapshot = await anvil.snapshot();
    const to = newAddress();
    const { hash, height } = await send({ to, value: ETHER });
    const first = await reader.blockHash(height);
    expect(of((await reader.block(height)).payments, hash)).toHaveLength(1);

    await anvil.revert(snapshot);
    expect(await reader.tipHeight()).toBe(height - 1);
    expect(await reader.blockHash(height)).toBeNull();
    await expect(reader.block(height)).rejects.toThrow(ChainNodeError);

    const other = await send({ to: newAddress(), value: 2n });
    expect(other.height).toBe(height);
    const second = await reader.block(height);
    expect(second.hash).not.toBe(first);
    expect(second.parentHash).toBe(await reader.blockHash(height - 1));
    expect(of(second.payments, hash)).toEqual([]);
    expect(second.payments.some((p) => p.to === to)).toBe(false);
    expect(of(second.payments, other.hash)).toHaveLength(1);
  });

  describe('a node without the debug namespace', () => {
    let proxy: Server;
    const warnings: string[] = [];

    beforeAll(async () => {
      proxy = await listen(async (req, res) => {
        const body = await readBody(req);
        const call = JSON.parse(body) as { id: unknown; method: string };
        if (call.method.startsWith('debug_')) {
          json(res, 200, {
            jsonrpc: '2.0',
            id: call.id,
            error: { code: -32601, message: 'Method not found' },
          });
          return;
        }
        const r = await fetch(anvil.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.writeHead(r.status, { 'content-type': 'application/json' }).end(await r.text());
      });
    });
    afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

    it('reports top-level transfers of successful transactions only, and says so once', async () => {
      const plain = newAddress();
      const viaContract = newAddress();
      const r = ethReader({
        url: urlOf(proxy),
        network: 'regtest',
        log: { warn: (_obj, msg) => warnings.push(msg) },
      });
      const a = await send({ to: plain, value: 12n });
      const b = await send({ to: forwarder, value: 34n, data: forwardCall(viaContract) });
      const c = await send({ to: forwarder, value: 56n, data: payThenRevertCall(plain), gas: 200_000n });
      expect(c.status).toBe('reverted');
      expect(of((await r.block(a.height)).payments, a.hash)).toEqual([
        { txid: a.hash, outputIndex: 0, to: plain, destinationTag: null, amount: 12n },
      ]);
      // The contract's payment is not seen without traces; the transaction's own value is, at index 0.
      expect(of((await r.block(b.height)).payments, b.hash)).toEqual([
        {
          txid: b.hash,
          outputIndex: 0,
          to: eth.normalizeAddress(forwarder),
          destinationTag: null,
          amount: 34n,
        },
      ]);
      expect(of((await r.block(c.height)).payments, c.hash)).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/top-level transfers only/);
      // The same block through the traced reader gives the same index-0 payment, and the contract's.
      expect(of((await reader.block(b.height)).payments, b.hash)).toHaveLength(2);
    });
  });

  describe('a node that lies about a block', () => {
    let proxy: Server;
    let tamper: (method: string, result: unknown) => unknown = (_m, r) => r;

    beforeAll(async () => {
      proxy = await listen(async (req, res) => {
        const body = await readBody(req);
        const call = JSON.parse(body) as { method: string };
        const r = await fetch(anvil.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = (await r.json()) as { result?: unknown };
        answer.result = tamper(call.method, answer.result);
        json(res, r.status, answer);
      });
    });
    afterAll(() => new Promise<void>((r) => proxy.close(() => r())));

    it('refuses traces that disagree with the block, and a block of another height', async () => {
      const r = ethReader({ url: urlOf(proxy), network: 'regtest' });
      const { height } = await send({ to: forwarder, value: 9n, data: forwardCall(newAddress()) });
      type Trace = { result: { value: string; calls?: unknown[] } };
      const cases: [string, (method: string, result: unknown) => unknown, RegExp][] = [
        [
          'a top-level value changed',
          (m, res) =>
            m.startsWith('debug_')
              ? (res as Trace[]).map((t) => ({ ...t, result: { ...t.result, value: '0x1' } }))
              : res,
          /disagrees with the transaction/,
        ],
        ['a trace missing', (m, res) => (m.startsWith('debug_') ? [] : res), /0 traces for 1 transactions/],
        [
          'another transaction’s trace',
          (m, res) =>
            m.startsWith('debug_')
              ? (res as object[]).map((t) => ({ ...t, txHash: `0x${'1'.repeat(64)}` }))
              : res,
          /trace 0 is of/,
        ],
        [
          'a value that is not a quantity',
          (m, res) =>
            m.startsWith('debug_')
              ? (res as Trace[]).map((t) => ({ ...t, result: { ...t.result, value: -5 } }))
              : res,
          /unexpected result/,
        ],
        [
          'another block number',
          (m, res) => (m === 'eth_getBlockByNumber' ? { ...(res as object), number: '0x1' } : res),
          /answered block 1/,
        ],
        [
          'a hash that is not a hash',
          (m, res) => (m === 'eth_getBlockByNumber' ? { ...(res as object), hash: '0x1234' } : res),
          /unexpected result/,
        ],
      ];
      for (const [name, t, message] of cases) {
        tamper = t;
        await expect(r.block(height), name).rejects.toThrow(message);
      }
      tamper = (_m, res) => res;
      expect((await r.block(height)).payments).toHaveLength(2);
    });
  });
});

describe('ethReader against a node that fails', () => {
  let server: Server;
  let answer: (body: { method: string; id: unknown }, res: ServerResponse) => void;
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
    ethReader({ url: urlOf(server).replace('//', '//bob:pw@'), network: 'mainnet', timeoutMs });

  it('sends the URL credentials as Basic auth and reads a good answer', async () => {
    answer = (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id, result: '0x2a' });
    expect(await reader().tipHeight()).toBe(42);
    expect(seenAuth).toBe(`Basic ${btoa('bob:pw')}`);
  });

  it('throws ChainNodeError for garbage, 500s, errors and malformed results', async () => {
    const cases: [string, typeof answer][] = [
      [
        'garbage',
        (_b, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result": "0x'),
      ],
      ['HTML 500', (_b, res) => res.writeHead(500, { 'content-type': 'text/html' }).end('<h1>oops</h1>')],
      [
        'JSON-RPC error',
        (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id, error: { code: -32000, message: 'x' } }),
      ],
      ['a number', (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id, result: 42 })],
      ['not hex', (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id, result: '0xzz' })],
      ['too large', (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id, result: `0x${'f'.repeat(20)}` })],
      ['no result', (b, res) => json(res, 200, { jsonrpc: '2.0', id: b.id })],
    ];
    for (const [name, a] of cases) {
      answer = a;
      await expect(reader().tipHeight(), name).rejects.toThrow(ChainNodeError);
    }
  });

  it('gives up on a node that does not answer within the timeout', async () => {
    answer = () => {};
    await expect(reader(300).tipHeight()).rejects.toThrow(ChainNodeError);
    await expect(reader(300).block(1)).rejects.toThrow(/no answer in time/);
  });

  it('throws ChainNodeError when nothing listens, and RangeError for a bad height', async () => {
    const closed = await listen(() => {});
    const url = urlOf(closed);
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(ethReader({ url, network: 'mainnet' }).tipHeight()).rejects.toThrow(ChainNodeError);
    await expect(reader().blockHash(-1)).rejects.toThrow(RangeError);
    await expect(reader().block(Number.NaN)).rejects.toThrow(RangeError);
  });
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

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
