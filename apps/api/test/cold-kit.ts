import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Coin, toSignedUnits } from '@p2p/contract';
import { expect } from 'vitest';
import type { TestApp } from './helpers.ts';
import { startSigner, type TestSigner } from './signer.ts';

/** What the cold-sweep tests of ETH and XRP read alike (issue 24): the signer's journal and the chain check. */

/** The COLD_SWEEP signatures (txids) the signer's journal holds for `requestId`, in order. */
export function coldJournal(signer: TestSigner, requestId: string): string[] {
  const text = readFileSync(join(signer.dataDir, 'signer', 'journal.ndjson'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { kind: string; purpose?: string; requestId?: string; txid: string })
    .filter((e) => e.kind === 'tx' && e.purpose === 'COLD_SWEEP' && e.requestId === requestId)
    .map((e) => e.txid);
}

/** The ledger check's chain difference of `coin` (on chain minus ledger, ledger units); fails on an error. */
export async function chainDifference(t: TestApp, coin: Coin): Promise<bigint> {
  const checks = await Promise.all(t.app.deps.chainChecks.map((c) => c()));
  const row = checks.find((c) => c.coinCode === coin);
  expect(row?.error).toBeNull();
  return toSignedUnits(row?.difference ?? 'missing');
}

/** The same signer process again (its DATA_DIR, port and token) with `env`: a restart with another configuration. */
export async function restartSigner(signer: TestSigner, env: Record<string, string>): Promise<TestSigner> {
  const { dataDir, port, token } = signer;
  await signer.stop();
  return startSigner({ dataDir, port, token, env });
}
