import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bech32, bech32m } from 'bech32';
import { describe, expect, it } from 'vitest';
import { hasLitecoind, startAnvil, startLitecoind, toLitecoinRegtestAddress } from './nodes.ts';

/**
 * The node harness itself (DECISIONS §17's test nodes): the nodes answer, a bcrt1 program is paid under the
 * rltc prefix, and whatever happens to the test, no node outlives it (a node left running holds memory and
 * ports on a machine that runs many test files).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until the process group is empty; false when it still has a process after `withinMs`. */
async function gone(pgid: number, withinMs: number): Promise<boolean> {
  for (let waited = 0; waited < withinMs && groupAlive(pgid); waited += 100) await sleep(100);
  return !groupAlive(pgid);
}

describe('toLitecoinRegtestAddress', () => {
  it('keeps the witness version and program and changes only the prefix', () => {
    const v0 = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
    const ltc = bech32.decode(toLitecoinRegtestAddress(v0));
    expect(ltc.prefix).toBe('rltc');
    expect(ltc.words).toEqual(bech32.decode(v0).words);
    // A taproot (v1, bech32m) program keeps its encoding.
    const v1 = bech32m.encode('bcrt', [1, ...bech32m.toWords(new Uint8Array(32).fill(7))]);
    const ltc1 = bech32m.decode(toLitecoinRegtestAddress(v1));
    expect([ltc1.prefix, ltc1.words]).toEqual(['rltc', bech32m.decode(v1).words]);
    expect(() => toLitecoinRegtestAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toThrow(/regtest/);
    expect(() => toLitecoinRegtestAddress('not an address')).toThrow();
  });
});

describe.skipIf(!hasLitecoind())('node harness', () => {
  it('litecoind: answers with the URL credentials, pays a bcrt1 address, and stop() leaves nothing', async () => {
    const node = await startLitecoind();
    try {
      const url = new URL(node.url);
      const res = await fetch(`${url.origin}/`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${url.username}:${url.password}`)}` },
        body: JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'getblockcount', params: [] }),
      });
      expect(await res.json()).toMatchObject({ result: 101, error: null });
      const anonymous = await fetch(`${url.origin}/`, { method: 'POST', body: '{}' });
      expect(anonymous.status).toBe(401);
      const to = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080';
      const txid = await node.pay(to, '0.5');
      expect(txid).toMatch(/^[0-9a-f]{64}$/);
      const [hash] = await node.mine(1);
      expect(await node.height()).toBe(102);
      const block = await node.rpc<{ tx: string[] }>('getblock', [hash, 1]);
      expect(block.tx).toContain(txid);
      expect(await node.voutOf(txid, to)).toBeGreaterThanOrEqual(0);
      await expect(node.pay(to, '0.1e1')).rejects.toThrow(/decimal/);
    } finally {
      await node.stop();
    }
    expect(groupAlive(node.pgid)).toBe(false);
    expect(existsSync(node.dataDir)).toBe(false);
    await node.stop(); // twice is harmless
  });

  it('anvil: answers, mines, and stop() leaves nothing', async () => {
    const anvil = await startAnvil();
    try {
      expect(await anvil.client.getChainId()).toBe(31337);
      const before = await anvil.height();
      await anvil.pay(anvil.accounts[1] ?? '0x', 5n);
      await anvil.mine(3);
      expect(await anvil.height()).toBe(before + 4);
    } finally {
      await anvil.stop();
    }
    expect(groupAlive(anvil.pgid)).toBe(false);
  });

  it('a test process killed without cleaning up leaves no node behind', async () => {
    const script = `
      import { startAnvil, startLitecoind } from './apps/api/test/nodes.ts';
      const [a, l] = await Promise.all([startAnvil(), startLitecoind()]);
      process.stdout.write(JSON.stringify({ pgids: [a.pgid, l.pgid], dataDir: l.dataDir }) + '\\n');
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { pgids, dataDir } = await new Promise<{ pgids: number[]; dataDir: string }>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      child.once('exit', (code) => reject(new Error(`the test process exited early (${code})`)));
    });
    expect(pgids.every(groupAlive)).toBe(true);
    child.kill('SIGKILL'); // no exit hook runs: only the watchdogs can clean up
    for (const pgid of pgids) expect(await gone(pgid, 30_000), `process group ${pgid}`).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
