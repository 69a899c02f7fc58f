import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { bytesToHex } from '@noble/hashes/utils.js';
import { stringify as stringifyLossless } from 'lossless-json';
import { base58check } from '../src/chains/hashes.ts';
import type { FakeNodeMode } from './fake-rippled.ts';

/**
 * A local stand-in for java-tron's HTTP API (DECISIONS §17: TRX is tested against a fake that answers the
 * documented shapes): `POST /wallet/getnowblock` -> the head block, `POST /wallet/getblockbynum {"num": n}` ->
 * the block or `{}` above the head. Blocks are protobuf JSON as java-tron prints them without `visible`
 * (`blockID`, `block_header.raw_data.{number, parentHash, ...}`, `transactions[].{txID, ret[0].contractRet,
 * raw_data.contract[0].{type, parameter.value}}` with hex `41...` addresses and amounts as JSON numbers, exact beyond 2^53),
 * built by the test. A block id is the height in 8 bytes followed by 24 bytes of a header hash, as on TRON.
 * Test-only.
 */

export type TronTx = Record<string, unknown> & { txID: string };

export interface TronBlock {
  blockID: string;
  block_header: { raw_data: Record<string, unknown> & { parentHash: string; number?: number } };
  transactions?: TronTx[];
}

export interface FakeTron {
  url: string;
  /** The blocks by height, oldest first (the node's chain). */
  readonly blocks: TronBlock[];
  mode: FakeNodeMode;
  /** When set, every answer body (a block or `{}`) passes through it before it is sent (a lying node). */
  rewrite: ((answer: Record<string, unknown>) => unknown) | null;
  /** The requests received: path, JSON body and headers. */
  readonly requests: { path: string; body: unknown; headers: IncomingHttpHeaders }[];
  /** Appends a block holding `txs` on top of the head; returns it. */
  addBlock(txs?: TronTx[]): TronBlock;
  /** Replaces the block at `height` with one holding `txs` and drops every block above it; returns it. */
  replaceBlock(height: number, txs?: TronTx[]): TronBlock;
  close(): Promise<void>;
}

const FIRST_HEIGHT = 70_000_000;

/** A random base58check `T...` address. */
export function randomTronAddress(): string {
  return base58check.encode(Uint8Array.of(0x41, ...randomBytes(20)));
}

/** The hex `41...` spelling java-tron uses of a `T...` address. */
export function tronHex(address: string): string {
  return bytesToHex(base58check.decode(address));
}

export interface TronTransferSpec {
  from?: string;
  to: string;
  /** Sun: a number, or a bigint beyond 2^53 (sent as an exact JSON integer). */
  sun: number | bigint;
  /** `contractRet`; default `SUCCESS`. */
  result?: string;
}

/** A `TransferContract` transaction as java-tron prints it (random signature; txID = sha256 of raw_data_hex). */
export function tronTransfer(spec: TronTransferSpec): TronTx {
  return tronTx(
    'TransferContract',
    'protocol.TransferContract',
    {
      amount: spec.sun,
      owner_address: tronHex(spec.from ?? randomTronAddress()),
      to_address: tronHex(spec.to),
    },
    spec.result,
  );
}

/** A TRC-10 `TransferAssetContract` (not TRX: readers skip it). */
export function tronAssetTransfer(spec: TronTransferSpec): TronTx {
  return tronTx(
    'TransferAssetContract',
    'protocol.TransferAssetContract',
    {
      amount: spec.sun,
      asset_name: '31303030303031',
      owner_address: tronHex(spec.from ?? randomTronAddress()),
      to_address: tronHex(spec.to),
    },
    spec.result,
  );
}

function tronTx(type: string, typeUrl: string, value: Record<string, unknown>, result = 'SUCCESS'): TronTx {
  const rawHex = randomBytes(90).toString('hex');
  return {
    ret: [{ contractRet: result }],
    signature: [randomBytes(65).toString('hex')],
    txID: createHash('sha256').update(Buffer.from(rawHex, 'hex')).digest('hex'),
    raw_data: {
      contract: [{ parameter: { value, type_url: `type.googleapis.com/${typeUrl}` }, type }],
      ref_block_bytes: randomBytes(2).toString('hex'),
      ref_block_hash: randomBytes(8).toString('hex'),
      expiration: 1_760_000_060_000,
      timestamp: 1_760_000_000_000,
    },
    raw_data_hex: rawHex,
  };
}

function buildBlock(height: number, parentHash: string, txs: TronTx[]): TronBlock {
  const headerHash = randomBytes(24).toString('hex');
  const raw: TronBlock['block_header']['raw_data'] = {
    number: height,
    txTrieRoot: randomBytes(32).toString('hex'),
    witness_address: `41${randomBytes(20).toString('hex')}`,
    parentHash,
    version: 31,
    timestamp: 1_760_000_000_000 + height * 3000,
  };
  const block: TronBlock = {
    blockID: height.toString(16).padStart(16, '0') + headerHash,
    block_header: {
      raw_data: raw,
      witness_signature: randomBytes(65).toString('hex'),
    } as TronBlock['block_header'],
  };
  // protobuf JSON leaves out an empty list
  if (txs.length > 0) block.transactions = txs;
  return block;
}

/** Starts the fake node on a free port of 127.0.0.1 with one empty block. */
export async function startFakeTron(): Promise<FakeTron> {
  const blocks: TronBlock[] = [];
  const requests: FakeTron['requests'] = [];
  const sockets = new Set<Socket>();
  const heightOf = (b: TronBlock) => b.block_header.raw_data.number ?? 0;

  const fake: FakeTron = {
    url: '',
    blocks,
    mode: 'ok',
    rewrite: null,
    requests,
    addBlock(txs = []) {
      const parent = blocks.at(-1);
      const block = parent
        ? buildBlock(heightOf(parent) + 1, parent.blockID, txs)
        : buildBlock(FIRST_HEIGHT, (FIRST_HEIGHT - 1).toString(16).padStart(16, '0') + '00'.repeat(24), txs);
      blocks.push(block);
      return block;
    },
    replaceBlock(height, txs = []) {
      const at = blocks.findIndex((b) => heightOf(b) === height);
      if (at < 1) throw new Error(`no block ${height} with a parent to replace`);
      const parent = blocks[at - 1] as TronBlock;
      blocks.splice(at);
      const block = buildBlock(height, parent.blockID, txs);
      blocks.push(block);
      return block;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    let body: unknown = null;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = raw;
    }
    requests.push({ path, body, headers: req.headers });
    if (fake.mode === 'hang') return;
    if (fake.mode === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (fake.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>502 Bad Gateway</html>');
      return;
    }
    let out: Record<string, unknown>;
    if (path === '/wallet/getnowblock') {
      out = (blocks.at(-1) ?? {}) as unknown as Record<string, unknown>;
    } else if (path === '/wallet/getblockbynum') {
      const num = (body as { num?: unknown } | null)?.num;
      out = (blocks.find((b) => heightOf(b) === num) ?? {}) as unknown as Record<string, unknown>;
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const sent = fake.rewrite ? fake.rewrite(structuredClone(out)) : out;
    res.writeHead(200, { 'content-type': 'application/json' }).end(stringifyLossless(sent) ?? '{}');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.addBlock();
  return fake;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
