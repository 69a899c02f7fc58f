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
  /**
   * Transactions accepted by `/wallet/broadcasttransaction` and not mined yet (java-tron's pending pool).
   * A broadcast body is the signer's JSON with `raw_data` (TransferContract; hex `41...` addresses).
   */
  readonly pending: TronTx[];
  /** Balances in sun by base58 address (`/wallet/getaccount`); a mined transfer moves them. */
  readonly balances: Map<string, bigint>;
  /** The fee in sun each mined transfer pays (its owner's balance and gettransactioninfobyid `fee`). */
  transferFeeSun: bigint;
  /** "Mines" the pending transactions into a new block on top of the head; returns it. */
  mine(): TronBlock;
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
    pending: [],
    balances: new Map(),
    transferFeeSun: 0n,
    mine() {
      const txs = fake.pending.splice(0);
      for (const t of txs) applyTransfer(fake, t);
      return fake.addBlock(txs);
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
    } else if (WRITE_PATHS.has(path)) {
      out = writeAnswer(fake, path, body);
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

/** The endpoints the TRX payer uses (java-tron's documented answers), kept apart from the reader's. */
const WRITE_PATHS = new Set([
  '/wallet/broadcasttransaction',
  '/wallet/gettransactioninfobyid',
  '/wallet/gettransactionfrompending',
  '/wallet/getaccount',
]);

const hexText = (s: string) => Buffer.from(s, 'utf8').toString('hex');

function transferOf(t: TronTx): { owner: string; to: string; amount: bigint } | null {
  const raw = t.raw_data as {
    contract?: { type?: string; parameter?: { value?: Record<string, unknown> } }[];
  };
  const c = raw?.contract?.[0];
  const v = c?.parameter?.value;
  if (c?.type !== 'TransferContract' || !v) return null;
  return {
    owner: base58check.encode(Buffer.from(String(v.owner_address), 'hex')),
    to: base58check.encode(Buffer.from(String(v.to_address), 'hex')),
    amount: BigInt(String(v.amount)),
  };
}

function applyTransfer(fake: FakeTron, t: TronTx): void {
  const x = transferOf(t);
  if (!x) return;
  fake.balances.set(x.owner, (fake.balances.get(x.owner) ?? 0n) - x.amount - fake.transferFeeSun);
  fake.balances.set(x.to, (fake.balances.get(x.to) ?? 0n) + x.amount);
}

function minedBlockOf(fake: FakeTron, txid: string): TronBlock | undefined {
  return fake.blocks.find((b) => b.transactions?.some((t) => t.txID === txid));
}

/** broadcasttransaction: `{result: true, txid}` or `{code, message: hex text, txid}` as java-tron answers. */
function broadcastAnswer(fake: FakeTron, body: Record<string, unknown>): Record<string, unknown> {
  const txid = String(body.txID ?? '');
  const refuse = (code: string, text: string) => ({ code, message: hexText(text), txid });
  if (!/^[0-9a-f]{64}$/.test(txid) || !Array.isArray(body.signature))
    return refuse('SIGERROR', 'bad transaction');
  if (fake.pending.some((t) => t.txID === txid) || minedBlockOf(fake, txid)) {
    return refuse('DUP_TRANSACTION_ERROR', 'dup transaction');
  }
  const expiration = Number((body.raw_data as { expiration?: unknown })?.expiration);
  const head = fake.blocks.at(-1)?.block_header.raw_data as { timestamp?: number } | undefined;
  if (!(expiration > (head?.timestamp ?? 0)))
    return refuse('TRANSACTION_EXPIRATION_ERROR', 'transaction expired');
  const x = transferOf(body as TronTx);
  if (!x) return refuse('CONTRACT_VALIDATE_ERROR', 'not a transfer');
  const spendable = fake.balances.get(x.owner) ?? 0n;
  if (spendable < x.amount + fake.transferFeeSun) {
    return refuse('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, balance is not sufficient.');
  }
  fake.pending.push({ ...(body as TronTx), ret: [{ contractRet: 'SUCCESS' }] });
  return { result: true, txid };
}

function writeAnswer(fake: FakeTron, path: string, body: unknown): Record<string, unknown> {
  const b = (body ?? {}) as Record<string, unknown>;
  if (path === '/wallet/broadcasttransaction') return broadcastAnswer(fake, b);
  if (path === '/wallet/getaccount') {
    const address = base58check.encode(Buffer.from(String(b.address), 'hex'));
    const balance = fake.balances.get(address);
    // an account the chain never saw is `{}`; protobuf JSON leaves out a zero balance
    return balance === undefined
      ? {}
      : balance === 0n
        ? { address: b.address }
        : { address: b.address, balance };
  }
  const txid = String(b.value ?? '');
  if (path === '/wallet/gettransactionfrompending') {
    return (fake.pending.find((t) => t.txID === txid) ?? {}) as Record<string, unknown>;
  }
  const block = minedBlockOf(fake, txid);
  if (!block) return {};
  const raw = block.block_header.raw_data as { number?: number; timestamp?: number };
  return {
    id: txid,
    fee: fake.transferFeeSun,
    blockNumber: raw.number ?? 0,
    blockTimeStamp: raw.timestamp,
    receipt: { net_fee: fake.transferFeeSun },
  };
}
