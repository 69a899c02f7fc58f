import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { decode, deriveAddress, encodeAccountID, hashes, PaymentFlags, verifySignature } from 'xrpl';

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

/** An account root as the fake keeps it. */
export interface XrpAccount {
  balance: bigint;
  sequence: number;
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
  /** The JSON-RPC requests received, in order. */
  readonly requests: { method: string; params: Record<string, unknown> }[];
  /**
   * Appends a ledger on top of the newest one holding the transactions submitted since (in the order applied)
   * and then `txs` (built with `xrpPayment`); returns it. It is the new validated ledger unless validatedIndex
   * says otherwise.
   */
  addLedger(txs?: XrpTx[]): XrpLedger;
  /** Accounts of the open ledger by classic address: Balance in drops and the next Sequence. */
  readonly accounts: Map<string, XrpAccount>;
  /** Accounts that refuse a payment without a DestinationTag (lsfRequireDestTag: tecDST_TAG_NEEDED). */
  readonly requireDestTag: Set<string>;
  /** Transactions applied to the open ledger by `submit`, not yet in a closed one. */
  readonly open: XrpTx[];
  /** The `fee` method's open_ledger_fee in drops (base_fee stays 10). */
  openLedgerFee: bigint;
  /**
   * A broken connection on `submit`: 'before' answers HTTP 500 without applying it, 'after' applies it and then
   * answers HTTP 500 (the client cannot tell whether it was applied). null: answers.
   */
  submitFault: 'before' | 'after' | null;
  /** Creates or credits an account with `drops` (a new one starts at the open ledger's index as Sequence). */
  fund(address: string, drops: bigint): void;
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

/** Starts the fake node on a free port of 127.0.0.1 with one empty ledger. */
export async function startFakeRippled(): Promise<FakeRippled> {
  const ledgers: XrpLedger[] = [];
  const requests: FakeRippled['requests'] = [];
  const sockets = new Set<Socket>();
  /** The accounts as each closed ledger left them (account_info on a closed or validated ledger). */
  const snapshots = new Map<number, Map<string, XrpAccount>>();

  const fake: FakeRippled = {
    url: '',
    ledgers,
    validatedIndex: null,
    mode: 'ok',
    rewrite: null,
    requests,
    accounts: new Map(),
    requireDestTag: new Set(),
    open: [],
    openLedgerFee: 10n,
    submitFault: null,
    fund(address, drops) {
      const a = fake.accounts.get(address);
      if (a) a.balance += drops;
      else fake.accounts.set(address, { balance: drops, sequence: openIndex(fake) });
    },
    addLedger(txs = []) {
      const parent = ledgers.at(-1);
      const all = [...fake.open.splice(0), ...txs];
      const ledger = parent
        ? buildLedger(parent.ledger_index + 1, parent.ledger_hash, parent.close_time, all)
        : buildLedger(FIRST_INDEX, randomBytes(32).toString('hex').toUpperCase(), 800_000_000, all);
      ledgers.push(ledger);
      snapshots.set(ledger.ledger_index, cloneAccounts(fake.accounts));
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
    const write = writeAnswer(fake, snapshots, String(body.method), params);
    if (write) return write;
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
    if (body.method === 'submit' && fake.submitFault) {
      if (fake.submitFault === 'after') answer(body);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
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

/*
 * The write side (the XRP payer's calls), in the shapes xrpl.org documents and xrpl's own response types spell:
 * `account_info`, `fee`, `ledger_current`, `submit` (a signed blob is decoded with xrpl, its signature verified
 * with xrpl and its key checked against the Account, then applied to the open ledger with rippled's result
 * codes) and `tx` (api_version 2: `tx_json`, `meta`, `validated`; `txnNotFound` with `searched_all`).
 */

/** The reserve of an account on the XRP Ledger today (1 XRP base reserve), in drops. */
const BASE_RESERVE = 1_000_000n;
const BASE_FEE = 10n;
/** rippled's numeric codes of the results the fake gives (TER.h). */
const RESULT_CODES: Record<string, [number, string]> = {
  tesSUCCESS: [0, 'The transaction was applied. Only final in a validated ledger.'],
  tecUNFUNDED_PAYMENT: [104, 'Insufficient XRP balance to send.'],
  tecNO_DST_INSUF_XRP: [125, 'Destination does not exist. Too little XRP sent to create it.'],
  tecDST_TAG_NEEDED: [143, 'A destination tag is required.'],
  tefPAST_SEQ: [-190, 'This sequence number has already passed.'],
  tefMAX_LEDGER: [-186, 'Ledger sequence too high.'],
  tefBAD_AUTH: [-196, "Transaction's public key is not authorized."],
  terPRE_SEQ: [-92, 'Missing/inapplicable prior transaction.'],
  terNO_ACCOUNT: [-96, 'The source account does not exist.'],
  telINSUF_FEE_P: [-394, 'Fee insufficient.'],
  temMALFORMED: [-299, 'Malformed transaction.'],
};

function openIndex(fake: FakeRippled): number {
  return (fake.ledgers.at(-1)?.ledger_index ?? FIRST_INDEX - 1) + 1;
}

function cloneAccounts(m: Map<string, XrpAccount>): Map<string, XrpAccount> {
  return new Map([...m].map(([k, v]) => [k, { ...v }]));
}

function validatedOf(fake: FakeRippled): number {
  const newest = fake.ledgers.at(-1)?.ledger_index ?? 0;
  return Math.min(fake.validatedIndex ?? newest, newest);
}

function rpcError(error: string, code: number, message: string, request: Record<string, unknown>) {
  return { result: { error, error_code: code, error_message: message, status: 'error', request } };
}

function writeAnswer(
  fake: FakeRippled,
  snapshots: Map<number, Map<string, XrpAccount>>,
  method: string,
  params: Record<string, unknown>,
): { result: Record<string, unknown> } | null {
  const current = openIndex(fake);
  if (method === 'ledger_current') return { result: { ledger_current_index: current, status: 'success' } };
  if (method === 'fee') {
    const drops = {
      base_fee: String(BASE_FEE),
      median_fee: '5000',
      minimum_fee: String(BASE_FEE),
      open_ledger_fee: String(fake.openLedgerFee),
    };
    const levels = {
      median_level: '128000',
      minimum_level: '256',
      open_ledger_level: String((fake.openLedgerFee * 256n) / BASE_FEE),
      reference_level: '256',
    };
    return {
      result: {
        current_ledger_size: String(fake.open.length),
        current_queue_size: '0',
        drops,
        expected_ledger_size: '1000',
        ledger_current_index: current,
        levels,
        max_queue_size: '20000',
        status: 'success',
      },
    };
  }
  if (method === 'account_info') return accountInfo(fake, snapshots, params);
  if (method === 'submit') return submit(fake, params);
  if (method === 'tx') return txLookup(fake, params);
  return null;
}

function accountInfo(
  fake: FakeRippled,
  snapshots: Map<number, Map<string, XrpAccount>>,
  params: Record<string, unknown>,
): { result: Record<string, unknown> } {
  const address = String(params.account);
  const which = params.ledger_index ?? 'current';
  const closed = which === 'validated' ? validatedOf(fake) : which === 'current' ? null : Number(which);
  const a = closed === null ? fake.accounts.get(address) : snapshots.get(closed)?.get(address);
  if (!a) return rpcError('actNotFound', 19, 'Account not found.', { command: 'account_info', ...params });
  const account_data = {
    Account: address,
    Balance: a.balance.toString(),
    Flags: fake.requireDestTag.has(address) ? 0x00020000 : 0,
    LedgerEntryType: 'AccountRoot',
    OwnerCount: 0,
    Sequence: a.sequence,
  };
  const where =
    closed === null
      ? { ledger_current_index: openIndex(fake) }
      : { ledger_index: closed, validated: closed <= validatedOf(fake) };
  return { result: { account_data, ...where, status: 'success' } };
}

/** Every transaction the node has: the open ones and those of closed ledgers, with their ledger index. */
function findTx(fake: FakeRippled, hash: string): { tx: XrpTx; ledger: number | null } | null {
  const open = fake.open.find((t) => t.hash === hash);
  if (open) return { tx: open, ledger: null };
  for (const l of fake.ledgers) {
    const t = l.transactions.find((x) => x.hash === hash);
    if (t) return { tx: t, ledger: l.ledger_index };
  }
  return null;
}

function txLookup(fake: FakeRippled, params: Record<string, unknown>): { result: Record<string, unknown> } {
  const hash = String(params.transaction ?? '').toUpperCase();
  const found = findTx(fake, hash);
  if (!found) {
    const out = rpcError('txnNotFound', 29, 'Transaction not found.', { command: 'tx', ...params });
    if (params.min_ledger !== undefined && params.max_ledger !== undefined) {
      const first = fake.ledgers[0]?.ledger_index ?? 0;
      const searchedAll =
        Number(params.min_ledger) >= first && Number(params.max_ledger) <= validatedOf(fake);
      Object.assign(out.result, { searched_all: searchedAll });
    }
    return out;
  }
  const { hash: _h, metaData, DeliverMax: _d, ...fields } = found.tx;
  // API v2: a Payment's Amount is printed as DeliverMax.
  const { Amount, ...rest } = fields;
  const tx_json = fields.TransactionType === 'Payment' ? { ...rest, DeliverMax: Amount } : fields;
  const result: Record<string, unknown> = { tx_json, hash, validated: false, status: 'success' };
  if (found.ledger !== null) {
    result.ledger_index = found.ledger;
    result.meta = metaData;
    result.validated = found.ledger <= validatedOf(fake);
  }
  return { result };
}

function submitAnswer(
  fake: FakeRippled,
  blob: string,
  tx: Record<string, unknown>,
  code: string,
  applied: boolean,
): { result: Record<string, unknown> } {
  const [number, message] = RESULT_CODES[code] ?? [-299, code];
  const account = fake.accounts.get(String(tx.Account));
  return {
    result: {
      accepted: applied,
      account_sequence_available: account?.sequence ?? 0,
      account_sequence_next: account?.sequence ?? 0,
      applied,
      broadcast: applied,
      engine_result: code,
      engine_result_code: number,
      engine_result_message: message,
      kept: applied,
      open_ledger_cost: String(fake.openLedgerFee),
      queued: false,
      tx_blob: blob,
      tx_json: { ...tx, hash: hashes.hashSignedTx(blob) },
      validated_ledger_index: validatedOf(fake),
      status: 'success',
    },
  };
}

/** Checks a signed blob as rippled's preflight / preclaim would: a result code, or null to apply it. */
function preclaim(fake: FakeRippled, blob: string, tx: Record<string, unknown>): string | null {
  const hash = hashes.hashSignedTx(blob);
  const sender = fake.accounts.get(String(tx.Account));
  if (findTx(fake, hash)) return 'tefPAST_SEQ';
  if (tx.TransactionType !== 'Payment' || typeof tx.Amount !== 'string') return 'temMALFORMED';
  if (deriveAddress(String(tx.SigningPubKey)) !== tx.Account) return 'tefBAD_AUTH';
  if (!sender) return 'terNO_ACCOUNT';
  const seq = Number(tx.Sequence);
  if (seq < sender.sequence) return 'tefPAST_SEQ';
  if (seq > sender.sequence) return 'terPRE_SEQ';
  if (tx.LastLedgerSequence !== undefined && Number(tx.LastLedgerSequence) < openIndex(fake)) {
    return 'tefMAX_LEDGER';
  }
  if (BigInt(String(tx.Fee)) < BASE_FEE) return 'telINSUF_FEE_P';
  return null;
}

/** Applies a Payment of drops to the open ledger: the fee and Sequence are taken whatever the tec result. */
function applyPayment(fake: FakeRippled, blob: string, tx: Record<string, unknown>): string {
  const sender = fake.accounts.get(String(tx.Account)) as XrpAccount;
  const fee = BigInt(String(tx.Fee));
  const amount = BigInt(String(tx.Amount));
  const to = String(tx.Destination);
  const dest = fake.accounts.get(to);
  sender.balance -= fee;
  sender.sequence += 1;
  let result = 'tesSUCCESS';
  if (fake.requireDestTag.has(to) && tx.DestinationTag === undefined) result = 'tecDST_TAG_NEEDED';
  else if (sender.balance - amount < BASE_RESERVE) result = 'tecUNFUNDED_PAYMENT';
  else if (!dest && amount < BASE_RESERVE) result = 'tecNO_DST_INSUF_XRP';
  if (result === 'tesSUCCESS') {
    sender.balance -= amount;
    if (dest) dest.balance += amount;
    else fake.accounts.set(to, { balance: amount, sequence: openIndex(fake) });
  }
  const metaData: Record<string, unknown> = {
    AffectedNodes: [],
    TransactionIndex: 0,
    TransactionResult: result,
  };
  if (result === 'tesSUCCESS') metaData.delivered_amount = tx.Amount;
  fake.open.push({ ...tx, DeliverMax: tx.Amount, hash: hashes.hashSignedTx(blob), metaData });
  return result;
}

function submit(fake: FakeRippled, params: Record<string, unknown>): { result: Record<string, unknown> } {
  const blob = String(params.tx_blob ?? '');
  let tx: Record<string, unknown>;
  try {
    tx = decode(blob);
    if (!verifySignature(blob)) throw new Error('Invalid signature.');
  } catch (err) {
    const exception = `fails local checks: ${(err as Error).message}`;
    return {
      result: { error: 'invalidTransaction', error_exception: exception, status: 'error', request: params },
    };
  }
  const refused = preclaim(fake, blob, tx);
  if (refused) return submitAnswer(fake, blob, tx, refused, false);
  return submitAnswer(fake, blob, tx, applyPayment(fake, blob, tx), true);
}
