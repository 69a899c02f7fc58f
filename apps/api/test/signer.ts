import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Coin } from '@p2p/contract';
import { type AccountsResponse, SIGNER_PATHS } from '@p2p/signer-protocol';
import { createSignerClient, type SignerClient } from '../src/chains/signer-client.ts';
import { freePort } from './infra.ts';
import { spawnGroup } from './nodes.ts';

/*
 * The real signer (apps/signer) for tests (DECISIONS §18): its own process on a free port, holding the public
 * TEST seed (apps/signer/test/fixtures/test-seed.hex, through SIGNER_SEED_FILE) whose xpubs the API's test helpers
 * use (src/chains/test-keys.ts). A process group like test/nodes.ts's nodes: stop() ends it, an exit hook and a
 * watchdog end what a test forgot.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The TEST seed's file: its private side is public, nothing of value may ever be sent to its addresses. */
export const TEST_SEED_FILE = join(ROOT, 'apps/signer/test/fixtures/test-seed.hex');
const SERVER = join(ROOT, 'apps/signer/src/server.ts');

const created = new Set<string>();
process.on('exit', () => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
});

export interface TestSigner {
  /** http://127.0.0.1:<port> */
  url: string;
  /** SIGNER_TOKEN of this signer. */
  token: string;
  port: number;
  /** Its DATA_DIR (journal under signer/journal.ndjson): start another on it to see a restart. */
  dataDir: string;
  /** The account keys it publishes (GET /v1/accounts), as XPUB_<COIN> holds them. */
  xpubs: Record<Coin, string>;
  accounts: AccountsResponse;
  /** The environment an API needs to use it: SIGNER_URL, SIGNER_TOKEN, XPUB_<COIN>, CHAIN_NETWORK. */
  apiEnv: Record<string, string>;
  /** A client of it (the API's own). */
  client: SignerClient;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash (the journal is left as it is). */
  kill(): Promise<void>;
}

export interface StartSignerOptions {
  /** A DATA_DIR to reuse (a restart); default a new temporary one, removed when this process exits. */
  dataDir?: string;
  /** More environment for the signer (SIGNER_MAX_TX_ETH, CHAIN_NETWORK, COLD_ADDRESS_ETH...). */
  env?: Record<string, string>;
  /** Reuse a token (a restart the API keeps talking to); default a random one. */
  token?: string;
  /** Reuse a port (a restart at the same SIGNER_URL); default a free one. */
  port?: number;
}

async function waitHealthy(url: string, exited: () => boolean, tail: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (exited()) throw new Error(`the signer exited:\n${tail()}`);
    const up = await fetch(`${url}${SIGNER_PATHS.health}`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return;
    if (Date.now() - started > 90_000) throw new Error(`the signer did not answer within 90 s:\n${tail()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the real signer process with the TEST seed (NODE_ENV=test) and waits for its /healthz. */
export async function startSigner(opts: StartSignerOptions = {}): Promise<TestSigner> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'p2p-signer-'));
  if (!opts.dataDir) created.add(dataDir);
  const port = opts.port ?? (await freePort());
  const token = opts.token ?? randomBytes(32).toString('hex');
  const url = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    SIGNER_HOST: '127.0.0.1',
    SIGNER_PORT: String(port),
    SIGNER_TOKEN: token,
    SIGNER_SEED_FILE: TEST_SEED_FILE,
    SIGNER_JOURNAL_FILE: join(dataDir, 'signer', 'journal.ndjson'),
    CHAIN_NETWORK: 'mainnet',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  const group = spawnGroup(process.execPath, ['--import', 'tsx', SERVER], undefined, env);
  try {
    await waitHealthy(url, group.exited, group.tail);
  } catch (err) {
    await group.stop(0);
    throw err;
  }
  const client = createSignerClient({ url, token });
  const accounts = await client.accounts();
  const xpubs = Object.fromEntries(accounts.accounts.map((a) => [a.coin, a.xpub])) as Record<Coin, string>;
  const apiEnv: Record<string, string> = {
    SIGNER_URL: url,
    SIGNER_TOKEN: token,
    CHAIN_NETWORK: env.CHAIN_NETWORK,
  };
  for (const [coin, xpub] of Object.entries(xpubs)) apiEnv[`XPUB_${coin}`] = xpub;
  return {
    url,
    token,
    port,
    dataDir,
    xpubs,
    accounts,
    apiEnv,
    client,
    stop: () => group.stop(),
    async kill() {
      try {
        process.kill(-group.pgid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await group.stop(0);
    },
  };
}
