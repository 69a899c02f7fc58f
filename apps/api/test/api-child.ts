import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Envelope, OpsWithdrawal } from '@p2p/contract';
import { freePort } from './infra.ts';

/*
 * The API as a child process for crash tests (`apps/api/src/server.ts`, as `npm start` runs it): started on a
 * free port with the given environment, stopped by a signal (SIGKILL: a crash), read through its HTTP API.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ApiChild {
  proc: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
}

/**
 * Starts `server.ts` with this process's environment plus `env` (no REDIS_URL, no operator bootstrap; no
 * DATABASE_URL unless `env` has one: the embedded database of its DATA_DIR). Resolves once /healthz answers;
 * `onStart` sees the process at once (a test kills what it started, even one that never became healthy).
 */
export async function startApiChild(
  env: Record<string, string>,
  onStart: (proc: ChildProcess) => void = () => undefined,
): Promise<ApiChild> {
  const port = await freePort();
  const full: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['REDIS_URL', 'OPERATOR_LOGIN_ID', 'OPERATOR_PASSWORD', 'DATABASE_URL']) delete full[k];
  Object.assign(full, env, { HOST: '127.0.0.1', PORT: String(port) });
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: full,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onStart(proc);
  let stderr = '';
  proc.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-20_000);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`server exited with ${proc.exitCode ?? proc.signalCode}: ${stderr}`);
    }
    const up = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) return { proc, base };
    if (Date.now() > deadline) throw new Error(`no /healthz within 90 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends `signal` to the child and resolves once it has exited. */
export async function stopApiChild(proc: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  const gone = new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) r();
    else proc.once('exit', () => r());
  });
  proc.kill(signal);
  await gone;
}

type OpsPage = Envelope<{ list: OpsWithdrawal[]; nextCursor: string | null }>;

/**
 * Every withdrawal of `status` in the operators' list (all its pages, cursor paging), asked with operator
 * token `token`; what was read so far when the server does not answer (it may be dying).
 */
export async function opsWithdrawals(base: string, token: string, status: string): Promise<OpsWithdrawal[]> {
  const all: OpsWithdrawal[] = [];
  let cursor: string | null = null;
  do {
    const page = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const url: string = `${base}/ops/api/v1/withdrawals?status=${status}&size=50${page}`;
    const r: OpsPage | null = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
      .then((x) => x.json() as Promise<OpsPage>)
      .catch(() => null);
    if (!r) return all;
    if (r.returnCode !== 0) throw new Error(`the withdrawal list answered ${JSON.stringify(r)}`);
    all.push(...r.returnData.list);
    cursor = r.returnData.nextCursor;
  } while (cursor);
  return all;
}

/** The signer's journal under `signerDataDir`: the WITHDRAWAL signatures (txids) by requestId. */
export function signerJournal(signerDataDir: string): Map<string, string[]> {
  const text = readFileSync(join(signerDataDir, 'signer', 'journal.ndjson'), 'utf8');
  const byRequest = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as { kind: string; purpose?: string; requestId?: string; txid?: string };
    if (e.kind !== 'tx' || e.purpose !== 'WITHDRAWAL' || !e.requestId || !e.txid) continue;
    byRequest.set(e.requestId, [...(byRequest.get(e.requestId) ?? []), e.txid]);
  }
  return byRequest;
}
