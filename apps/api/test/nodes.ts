import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bech32, bech32m } from '@scure/base';
import { Transaction } from 'bitcoinjs-lib';
import {
  type Address,
  createTestClient,
  type Hex,
  http,
  publicActions,
  type TestClient,
  walletActions,
} from 'viem';
import { freePort } from './infra.ts';

/*
 * Real chain nodes for tests (DECISIONS §17): Anvil (npm @foundry-rs/anvil) for Ethereum and Litecoin Core in
 * regtest (Debian litecoind) for the Bitcoin code. Each starts on a free port with its own state and is a
 * process group of its own: stop() kills the group, an exit hook kills what a test forgot, and a watchdog in
 * the group kills it when the test process dies without running either (a worker SIGKILLed by a timeout).
 */

/** The process groups still running, killed when this process exits. */
const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of live) killGroup(pgid, 'SIGKILL');
  });
}

function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupAlive(pgid: number): boolean {
  return killGroup(pgid, 0 as unknown as NodeJS.Signals);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The node runs in the background of a shell that leads a new process group; the shell watches this test
 * process and the node once a second and kills the whole group (itself included) when either is gone.
 */
const WATCHDOG =
  '"$@" & node=$!; while kill -0 "$WATCH_PID" 2>/dev/null && kill -0 "$node" 2>/dev/null; do sleep 1; done; kill -KILL 0';

export interface Group {
  child: ChildProcess;
  pgid: number;
  /** The last lines the node printed (for the error of a failed start). */
  tail(): string;
  exited(): boolean;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves when no process of the group is left. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs `command` as the leader's child in a process group of its own (see WATCHDOG); `env` is added to this
 * process's environment. Also used by test/signer.ts for the signer.
 */
export function spawnGroup(
  command: string,
  args: string[],
  onLine?: (line: string) => void,
  env: NodeJS.ProcessEnv = {},
): Group {
  installExitHook();
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'node-watchdog', command, ...args], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, WATCH_PID: String(process.pid) },
  });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error(`could not start ${command}`);
  live.add(pgid);
  const lines: string[] = [];
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = partial + chunk.toString('utf8');
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      if (lines.length > 40) lines.shift();
      onLine?.(line);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  return {
    child,
    pgid,
    tail: () => [...lines, partial].join('\n').trim(),
    exited: () => exited,
    async stop(graceMs = 5000) {
      killGroup(pgid, 'SIGTERM');
      for (let waited = 0; groupAlive(pgid) && waited < graceMs; waited += 50) await sleep(50);
      killGroup(pgid, 'SIGKILL');
      while (groupAlive(pgid)) await sleep(20);
      live.delete(pgid);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Anvil

/** A running Anvil (chain id 31337, automining unless started with `automine: false`). */
export interface Anvil {
  /** JSON-RPC endpoint, `http://127.0.0.1:<port>`. */
  url: string;
  /** The process group the node runs in (stop() and the watchdog kill all of it). */
  pgid: number;
  /** The node's prefunded, unlocked dev accounts (10,000 ETH each); `accounts[0]` pays by default. */
  accounts: Address[];
  /** viem client on the node: public, wallet (unlocked accounts) and test (anvil_*, evm_*) actions. */
  client: TestClient<'anvil'> & ReturnType<typeof publicActions> & ReturnType<typeof walletActions>;
  /** Sends `wei` from `from` (default accounts[0]) to `to`; resolves with the transaction hash once mined. */
  pay(to: Address, wei: bigint, from?: Address): Promise<Hex>;
  /** Deploys `bytecode` (creation code); resolves with the contract's address once mined. */
  deploy(bytecode: Hex, from?: Address): Promise<Address>;
  /** Mines `blocks` empty-or-pending blocks (anvil_mine). */
  mine(blocks?: number): Promise<void>;
  /** evm_snapshot: an id to revert to. */
  snapshot(): Promise<Hex>;
  /** evm_revert: the chain as it was at the snapshot (the blocks after it are gone). */
  revert(id: Hex): Promise<void>;
  /** The newest block's number. */
  height(): Promise<number>;
  stop(): Promise<void>;
}

const requireHere = createRequire(import.meta.url);

/** The anvil binary of the platform package @foundry-rs/anvil installs (no download at run time). */
export function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  try {
    return join(dirname(requireHere.resolve(`${pkg}/package.json`)), 'bin', 'anvil');
  } catch {
    throw new Error(
      `${pkg} is not installed: run npm install (it is an optional dependency of @foundry-rs/anvil)`,
    );
  }
}

/** Starts Anvil on a free port of 127.0.0.1; resolves once it answers JSON-RPC. */
export async function startAnvil(opts: { automine?: boolean; args?: string[] } = {}): Promise<Anvil> {
  let portSeen: (port: number) => void = () => {};
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', '31337', '--accounts', '10'];
  if (opts.automine === false) args.push('--no-mining');
  const group = spawnGroup(anvilBinary(), [...args, ...(opts.args ?? [])], (line) => {
    const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(line);
    if (m) portSeen(Number(m[1]));
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('anvil did not listen within 30 s')), 30_000);
      const exited = () => reject(new Error('anvil exited'));
      group.child.once('exit', exited);
      portSeen = (p) => {
        clearTimeout(timer);
        group.child.off('exit', exited);
        resolve(p);
      };
    });
    const url = `http://127.0.0.1:${port}`;
    const client = createTestClient({ mode: 'anvil', transport: http(url, { retryCount: 0 }) })
      .extend(publicActions)
      .extend(walletActions);
    const accounts = await client.getAddresses();
    const payer = (from?: Address): Address => {
      const a = from ?? accounts[0];
      if (!a) throw new Error('anvil has no dev account');
      return a;
    };
    const mined = async (hash: Hex) => {
      if (opts.automine === false) await client.mine({ blocks: 1 });
      return client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    };
    return {
      url,
      pgid: group.pgid,
      accounts,
      client,
      async pay(to, wei, from) {
        const hash = await client.sendTransaction({ account: payer(from), to, value: wei, chain: null });
        await mined(hash);
        return hash;
      },
      async deploy(bytecode, from) {
        const hash = await client.sendTransaction({ account: payer(from), data: bytecode, chain: null });
        const receipt = await mined(hash);
        if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error('deployment failed');
        return receipt.contractAddress;
      },
      mine: (blocks = 1) => client.mine({ blocks }),
      snapshot: () => client.snapshot(),
      async revert(id) {
        await client.revert({ id });
      },
      height: async () => Number(await client.getBlockNumber({ cacheTime: 0 })),
      stop: () => group.stop(2000),
    };
  } catch (err) {
    const tail = group.tail();
    await group.stop(0);
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Litecoin Core in regtest

/** A running litecoind -regtest with a funded wallet `pay` (101 blocks mined to it at start). */
export interface Litecoind {
  /** JSON-RPC URL with the credentials in its user part, as CHAIN_RPC_BTC takes it (DECISIONS §17). */
  url: string;
  /** The process group the node runs in (stop() and the watchdog kill all of it). */
  pgid: number;
  /** The node's data directory (removed by stop()). */
  dataDir: string;
  /** A node-level RPC call; throws the node's error message. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** An RPC call on the paying wallet. */
  wallet<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `n` blocks to the paying wallet; resolves with their hashes, oldest first. */
  mine(n?: number): Promise<string[]>;
  /**
   * Pays `amount` (a decimal string, at most 8 decimals, in coins) to a `bcrt1` (or `rltc1`) address: the
   * same witness program under the `rltc` prefix. Resolves with the txid (in the mempool, not mined).
   */
  pay(address: string, amount: string): Promise<string>;
  /** One transaction paying each `bcrt1`/`rltc1` address its amount (decimal strings); resolves with the txid. */
  payMany(outputs: Record<string, string>): Promise<string>;
  /** The vout of `txid` that pays `address` (bcrt1 or rltc1); throws when none does. */
  voutOf(txid: string, address: string): Promise<number>;
  /** invalidateblock: `hash` and its descendants leave the best chain; their transactions return to the mempool. */
  invalidateBlock(hash: string): Promise<void>;
  /** reconsiderblock: undoes invalidateBlock. */
  reconsiderBlock(hash: string): Promise<void>;
  /**
   * Replaces the unconfirmed wallet transaction `txid` (BIP-125, the wallet signals it) by one that spends the
   * same inputs back to the wallet: the payment it made can then never confirm. Resolves with the new txid.
   */
  doubleSpend(txid: string): Promise<string>;
  /** The best chain's height. */
  height(): Promise<number>;
  stop(): Promise<void>;
}

/** The node's address of a `bcrt1` segwit address: the same witness version and program, prefix `rltc`. */
export function toLitecoinRegtestAddress(address: string): string {
  const lower = address.toLowerCase();
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(lower, 90);
    if (!decoded) continue;
    if (decoded.prefix === 'rltc') return lower;
    if (decoded.prefix !== 'bcrt') throw new Error(`not a regtest segwit address: ${address}`);
    return codec.encode('rltc', decoded.words, 90);
  }
  throw new Error(`not a segwit address: ${address}`);
}

function litecoindBinary(): string {
  if (process.env.LITECOIND) return process.env.LITECOIND;
  // Debian's /usr/bin/litecoind is a wrapper that writes ~/.litecoin; the daemon itself needs nothing there.
  return existsSync('/usr/lib/litecoin/litecoind') ? '/usr/lib/litecoin/litecoind' : 'litecoind';
}

/** True when a litecoind binary is installed (Debian package `litecoind`; `.ci/run` installs it). */
export function hasLitecoind(): boolean {
  if (process.env.LITECOIND) return existsSync(process.env.LITECOIND);
  return ['/usr/lib/litecoin/litecoind', '/usr/bin/litecoind', '/usr/local/bin/litecoind'].some((p) =>
    existsSync(p),
  );
}

const AMOUNT = /^(0|[1-9]\d{0,7})(\.\d{1,8})?$/;

function coins(sats: bigint): string {
  const whole = sats / 100_000_000n;
  const frac = (sats % 100_000_000n).toString().padStart(8, '0');
  return `${whole}.${frac}`;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Starts `litecoind -regtest` on a free port with its own data directory; resolves once its wallet is funded. */
export async function startLitecoind(opts: { args?: string[] } = {}): Promise<Litecoind> {
  let lastError: unknown;
  // A port found free can be taken before the node binds it: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startLitecoindOnce(opts);
    } catch (err) {
      lastError = err;
      if (!/bind|Address already in use/i.test((err as Error).message)) throw err;
    }
  }
  throw lastError;
}

async function startLitecoindOnce(opts: { args?: string[] }): Promise<Litecoind> {
  const dataDir = mkdtempSync(join(tmpdir(), 'litecoind-'));
  const conf = join(dataDir, 'litecoin.conf');
  writeFileSync(conf, '');
  const port = await freePort();
  const user = 'test';
  const password = randomBytes(12).toString('hex');
  const group = spawnGroup(litecoindBinary(), [
    '-regtest',
    `-datadir=${dataDir}`,
    `-conf=${conf}`,
    '-server=1',
    '-listen=0',
    '-dnsseed=0',
    '-discover=0',
    '-upnp=0',
    '-listenonion=0',
    `-rpcport=${port}`,
    '-rpcbind=127.0.0.1',
    '-rpcallowip=127.0.0.1',
    `-rpcuser=${user}`,
    `-rpcpassword=${password}`,
    '-printtoconsole=1',
    '-dbcache=8',
    '-keypool=10',
    '-fallbackfee=0.0001',
    // BIP-125 replacement, and wallet transactions that signal it, for doubleSpend.
    '-mempoolreplacement=1',
    '-walletrbf=1',
    // MWEB would activate at height 432 and change the block format (and stop generatetoaddress): never.
    '-vbparams=mweb:0:0:2147483646:2147483647',
    ...(opts.args ?? []),
  ]);
  const base = `http://127.0.0.1:${port}`;
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let id = 0;
  const call = async <T>(path: string, method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let body: { result?: T; error?: { code: number; message: string } | null };
    try {
      body = JSON.parse(text);
    } catch {
      throw new RpcError(res.status, `${method}: HTTP ${res.status} ${text.slice(0, 200)}`);
    }
    if (body.error) throw new RpcError(body.error.code, `${method}: ${body.error.message}`);
    return body.result as T;
  };
  const stop = async () => {
    await group.stop(5000);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let waited = 0; ; waited += 100) {
      if (group.exited()) throw new Error('litecoind exited');
      try {
        await call('', 'getblockcount');
        break;
      } catch (err) {
        // -28: still warming up; a refused connection: not listening yet.
        if (err instanceof RpcError && err.code !== -28) throw err;
        if (waited > 30_000) throw new Error('litecoind did not answer RPC within 30 s');
        await sleep(100);
      }
    }
    await call('', 'createwallet', ['pay']);
    const rpc = <T>(method: string, params?: unknown[]) => call<T>('', method, params);
    const wallet = <T>(method: string, params?: unknown[]) => call<T>('/wallet/pay', method, params);
    const miner = await wallet<string>('getnewaddress', ['', 'bech32']);
    const mine = (n = 1) => rpc<string[]>('generatetoaddress', [n, miner]);
    const checkAmount = (amount: string) => {
      if (!AMOUNT.test(amount)) throw new Error(`amount must be a decimal string of coins: ${amount}`);
      return amount; // the node takes amounts as strings, so no float is ever involved
    };
    await mine(101); // the first coinbase matures: 50 coins to spend
    const node: Litecoind = {
      url: `http://${user}:${password}@127.0.0.1:${port}/`,
      pgid: group.pgid,
      dataDir,
      rpc,
      wallet,
      mine,
      pay: async (address, amount) =>
        wallet<string>('sendtoaddress', [toLitecoinRegtestAddress(address), checkAmount(amount)]),
      payMany: async (outputs) =>
        wallet<string>('sendmany', [
          '',
          Object.fromEntries(
            Object.entries(outputs).map(([a, amount]) => [toLitecoinRegtestAddress(a), checkAmount(amount)]),
          ),
        ]),
      async voutOf(txid, address) {
        const target = toLitecoinRegtestAddress(address);
        const { hex } = await wallet<{ hex: string }>('gettransaction', [txid]);
        const tx = await rpc<{
          vout: { n: number; scriptPubKey: { address?: string; addresses?: string[] } }[];
        }>('decoderawtransaction', [hex]);
        const out = tx.vout.find(
          (o) => o.scriptPubKey.address === target || o.scriptPubKey.addresses?.includes(target),
        );
        if (!out) throw new Error(`${txid} pays nothing to ${address}`);
        return out.n;
      },
      invalidateBlock: (hash) => rpc<void>('invalidateblock', [hash]),
      reconsiderBlock: (hash) => rpc<void>('reconsiderblock', [hash]),
      async doubleSpend(txid) {
        const { hex } = await wallet<{ hex: string }>('gettransaction', [txid]);
        const original = Transaction.fromHex(hex);
        let total = 0n;
        const inputs: { txid: string; vout: number }[] = [];
        for (const input of original.ins) {
          const prevTxid = Buffer.from(input.hash).reverse().toString('hex');
          const prev = Transaction.fromHex((await wallet<{ hex: string }>('gettransaction', [prevTxid])).hex);
          const spent = prev.outs[input.index];
          if (!spent) throw new Error(`${prevTxid}:${input.index} does not exist`);
          total += spent.value;
          inputs.push({ txid: prevTxid, vout: input.index });
        }
        const fee = 100_000n; // well above the original's, as BIP-125 asks of a replacement
        if (total <= fee * 2n) throw new Error('inputs too small to replace');
        const back = await wallet<string>('getnewaddress', ['', 'bech32']);
        const raw = await rpc<string>('createrawtransaction', [
          inputs,
          { [back]: coins(total - fee) },
          0,
          true,
        ]);
        const signed = await wallet<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [
          raw,
        ]);
        if (!signed.complete) throw new Error('the wallet could not sign the replacement');
        return rpc<string>('sendrawtransaction', [signed.hex]);
      },
      height: () => rpc<number>('getblockcount'),
      stop,
    };
    return node;
  } catch (err) {
    const tail = group.tail();
    await stop();
    throw new Error(`${(err as Error).message}\n${tail}`);
  }
}
