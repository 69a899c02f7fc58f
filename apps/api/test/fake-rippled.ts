import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { encodeAccountID, hashes, PaymentFlags } from 'xrpl';

/**
 * A local stand-in for a rippled / Clio JSON-RPC node (DECISIONS §17: XRP is tested against a fake that answers
 * the documented shapes, since no XRP node runs here). It answers `ledger` as rippled does in API v1
 * (`{"method":"ledger","params":[{ledger_index, transactions, expand}]}` -> `{"result":{ledger:{...header,
 * transactions:[{...tx, hash, metaData}]}, ledger_hash, ledger_index, validated, status}}`, `lgrNotFound` for
 * an unknown index) on ledgers the test builds. The ledgers are real in their hashes: every transaction hash,
 * the transaction tree and the header hash are computed with xrpl's codec, so a reader that checks them
 * accepts them, and `rewrite` lets a test make the node lie. Test-only.
 */

/** A transaction as a ledger holds it in API v1: its fields, `hash` and `metaData`. */
export type XrpTx = Record<string, unknown> & { hash: string; metaData: Record<string, unknown> };

export interface XrpLedger {
  ledger_index: number;
  ledger_hash: string;
  parent_hash: string;
  transaction_hash: string;
  account_hash: string;
  total_coins: string;
  close_time: number;
  parent_close_time: number;
  close_time_resolution: number;
  close_flags: number;
  transactions: XrpTx[];
}

/** What the node does with the next requests: answer, 500, send junk, or never answer. */
export type FakeNodeMode = 'ok' | 'http500' | 'garbage' | 'hang';

export interface FakeRippled {
  url: string;
  /** The ledgers by index, oldest first (the node's chain). */
  readonly ledgers: XrpLedger[];
  /** The newest validated index; ledgers above it answer `validated: false`. Defaults to the newest. */
  validatedIndex: number | null;
  mode: FakeNodeMode;
  /** When set, every answer body passes through it before it is sent (a lying node). */
  rewrite: ((answer: { result: Record<string, unknown> }) => unknown) | null;
  /** Account balances in drops (`account_info` in the validated ledger); an account not here is `actNotFound`. */
  readonly balances: Map<string, bigint>;
  /** The JSON-RPC requests received, in order. */
  readonly requests: { method: string; params: Record<string, unknown> }[];
  /** Appends a ledger holding `txs` (built with `xrpPayment`) on top of the newest one; returns it. */
  addLedger(txs?: XrpTx[]): XrpLedger;
  /**
   * Replaces the ledger at `index` with a new one holding `txs` and drops every ledger above it (what a node
   * that switched forks, or a lying one, answers afterwards); returns the new ledger.
   */
  replaceLedger(index: number, txs?: XrpTx[]): XrpLedger;
  close(): Promise<void>;
}

const FIRST_INDEX = 90_000_000;

/** A random classic address (a throw-away account id). */
export function randomXrpAddress(): string {
  return encodeAccountID(randomBytes(20));
}

export interface XrpPaymentSpec {
  from?: string;
  to: string;
  /** What the sender asked to deliver: drops as a string, or an issued-currency amount. */
  amount: string | { currency: string; issuer: string; value: string };
  /** What arrived (drops or token); defaults to `amount`. Set it lower with `partial` for a partial payment. */
  delivered?: string | { currency: string; issuer: string; value: string };
  partial?: boolean;
  destinationTag?: number;
  /** The engine result, e.g. `tecPATH_PARTIAL`; default `tesSUCCESS`. */
  result?: string;
}

/**
 * A signed-looking `Payment` as rippled reports it (random key and signature bytes: nothing verifies
 * signatures here, but the hash is the real hash of the fields). A partial payment records `DeliveredAmount`
 * in the metadata as rippled does; `delivered_amount` is what rippled adds to the JSON. A failed payment
 * (tec...) delivers nothing: no `delivered_amount`.
 */
export function xrpPayment(spec: XrpPaymentSpec): XrpTx {
  const result = spec.result ?? 'tesSUCCESS';
  const tx: Record<string, unknown> = {
    TransactionType: 'Payment',
    Account: spec.from ?? randomXrpAddress(),
    Destination: spec.to,
    Amount: spec.amount,
    Fee: '12',
    Flags: spec.partial ? PaymentFlags.tfPartialPayment : 0,
    Sequence: randomBytes(3).readUIntBE(0, 3),
    SigningPubKey: `02${randomBytes(32).toString('hex').toUpperCase()}`,
    TxnSignature: randomBytes(70).toString('hex').toUpperCase(),
  };
  if (spec.destinationTag !== undefined) tx.DestinationTag = spec.destinationTag;
  if (spec.partial) tx.SendMax = spec.amount;
  const hash = hashes.hashSignedTx(tx as Parameters<typeof hashes.hashSignedTx>[0]);
  // rippled 2.x prints DeliverMax, Amount's alias, beside it (not part of the binary form or the hash)
  tx.DeliverMax = spec.amount;
  const delivered = spec.delivered ?? spec.amount;
  const metaData: Record<string, unknown> = {
    AffectedNodes: [],
    TransactionIndex: 0,
    TransactionResult: result,
  };
  if (result === 'tesSUCCESS') {
    if (spec.partial) metaData.DeliveredAmount = delivered;
    metaData.delivered_amount = delivered;
  }
  return { ...tx, hash, metaData };
}

/** Any other transaction type, e.g. an `AccountSet` (to show that readers skip what is not a payment). */
export function xrpAccountSet(account: string = randomXrpAddress()): XrpTx {
  const tx: Record<string, unknown> = {
    TransactionType: 'AccountSet',
    Account: account,
    Fee: '12',
    Flags: 0,
    Sequence: 1,
    SetFlag: 1,
    SigningPubKey: `02${randomBytes(32).toString('hex').toUpperCase()}`,
    TxnSignature: randomBytes(70).toString('hex').toUpperCase(),
  };
  const hash = hashes.hashSignedTx(tx as Parameters<typeof hashes.hashSignedTx>[0]);
  return {
    ...tx,
    hash,
    metaData: { AffectedNodes: [], TransactionIndex: 0, TransactionResult: 'tesSUCCESS' },
  };
}

function buildLedger(index: number, parentHash: string, parentCloseTime: number, txs: XrpTx[]): XrpLedger {
  const transactions = txs.map((t, i): XrpTx => ({ ...t, metaData: { ...t.metaData, TransactionIndex: i } }));
  const binaryFields = transactions.map(({ DeliverMax: _alias, ...fields }) => fields);
  const header = {
    ledger_index: index,
    parent_hash: parentHash,
    account_hash: randomBytes(32).toString('hex').toUpperCase(),
    total_coins: '99986000000000000',
    close_time: parentCloseTime + 4,
    parent_close_time: parentCloseTime,
    close_time_resolution: 10,
    close_flags: 0,
    transaction_hash: hashes.hashTxTree(binaryFields as unknown as Parameters<typeof hashes.hashTxTree>[0]),
  };
  const ledger_hash = hashes.hashLedgerHeader(
    header as unknown as Parameters<typeof hashes.hashLedgerHeader>[0],
  );
  return { ...header, ledger_hash, transactions };
}

/** rippled's `account_info` (API v1) in the newest validated ledger: the account's root, or `actNotFound`. */
function accountInfo(
  fake: FakeRippled,
  params: Record<string, unknown>,
): { result: Record<string, unknown> } {
  const account = String(params.account);
  const balance = fake.balances.get(account);
  const newest = fake.ledgers.at(-1)?.ledger_index ?? 0;
  const ledger_index = Math.min(fake.validatedIndex ?? newest, newest);
  if (balance === undefined) {
    return {
      result: {
        account,
        error: 'actNotFound',
        error_code: 19,
        error_message: 'Account not found.',
        ledger_index,
        status: 'error',
        validated: true,
      },
    };
  }
  return {
    result: {
      account_data: {
        Account: account,
        Balance: balance.toString(),
        Flags: 131072,
        LedgerEntryType: 'AccountRoot',
        OwnerCount: 0,
        Sequence: 1,
        index: randomBytes(32).toString('hex').toUpperCase(),
      },
      ledger_index,
      status: 'success',
      validated: true,
    },
  };
}

/** Starts the fake node on a free port of 127.0.0.1 with one empty ledger. */
export async function startFakeRippled(): Promise<FakeRippled> {
  const ledgers: XrpLedger[] = [];
  const requests: FakeRippled['requests'] = [];
  const sockets = new Set<Socket>();

  const fake: FakeRippled = {
    url: '',
    ledgers,
    validatedIndex: null,
    mode: 'ok',
    rewrite: null,
    requests,
    balances: new Map(),
    addLedger(txs = []) {
      const parent = ledgers.at(-1);
      const ledger = parent
        ? buildLedger(parent.ledger_index + 1, parent.ledger_hash, parent.close_time, txs)
        : buildLedger(FIRST_INDEX, randomBytes(32).toString('hex').toUpperCase(), 800_000_000, txs);
      ledgers.push(ledger);
      return ledger;
    },
    replaceLedger(index, txs = []) {
      const at = ledgers.findIndex((l) => l.ledger_index === index);
      if (at < 1) throw new Error(`no ledger ${index} with a parent to replace`);
      const parent = ledgers[at - 1] as XrpLedger;
      ledgers.splice(at);
      // A different close time gives a different header, so the replacement has another hash even when empty.
      const ledger = buildLedger(index, parent.ledger_hash, parent.close_time + 1, txs);
      ledgers.push(ledger);
      if (fake.validatedIndex !== null && fake.validatedIndex > index) fake.validatedIndex = index;
      return ledger;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  function answer(body: { method?: unknown; params?: unknown }): { result: Record<string, unknown> } {
    const params = (Array.isArray(body.params) ? body.params[0] : {}) as Record<string, unknown>;
    requests.push({ method: String(body.method), params });
    if (body.method === 'account_info') return accountInfo(fake, params);
    if (body.method !== 'ledger') {
      return { result: { error: 'unknownCmd', error_code: 32, status: 'error', request: body } };
    }
    const newest = ledgers.at(-1)?.ledger_index ?? 0;
    const validated = Math.min(fake.validatedIndex ?? newest, newest);
    const which = params.ledger_index ?? 'current';
    const index =
      which === 'validated' ? validated : which === 'current' || which === 'closed' ? newest : Number(which);
    const ledger = ledgers.find((l) => l.ledger_index === index);
    if (!ledger) {
      return {
        result: {
          error: 'lgrNotFound',
          error_code: 21,
          error_message: 'ledgerNotFound',
          status: 'error',
          request: { command: 'ledger', ...params },
        },
      };
    }
    const { transactions, ledger_index, ...header } = ledger;
    const shown: Record<string, unknown> = {
      ...header,
      ledger_index: String(ledger_index),
      close_time_human: new Date((ledger.close_time + 946_684_800) * 1000).toUTCString(),
      close_time_iso: new Date((ledger.close_time + 946_684_800) * 1000).toISOString(),
      closed: true,
    };
    if (params.transactions === true) {
      shown.transactions = params.expand === true ? transactions : transactions.map((t) => t.hash);
    }
    return {
      result: {
        ledger: shown,
        ledger_hash: ledger.ledger_hash,
        ledger_index,
        validated: index <= validated,
        status: 'success',
      },
    };
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (fake.mode === 'hang') return;
    if (fake.mode === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (fake.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result": {"ledger": [1, 2,');
      return;
    }
    let body: { method?: unknown; params?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('Unable to parse request');
      return;
    }
    const out = answer(body);
    const sent = fake.rewrite ? fake.rewrite(structuredClone(out)) : out;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sent));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  fake.addLedger();
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
