import { readFileSync } from 'node:fs';
import { verifyProof } from './proof.ts';

/**
 * `p2p-verify-reserves proof.json` (DECISIONS §20): verifies a downloaded proof on its own and prints each step.
 * Exit code 0 when the proof verifies, 1 when it does not, 2 for a file that cannot be read or parsed.
 */
export function main(argv: readonly string[], out: (line: string) => void = console.log): number {
  const file = argv[0];
  if (!file || argv.length > 1) {
    out('usage: p2p-verify-reserves <proof.json>');
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    out(`cannot read ${file}: ${(err as Error).message}`);
    return 2;
  }
  const result = verifyProof(json);
  const proof = json as {
    coinCode?: string;
    snapshotAt?: string;
    leaf?: { index?: number; balance?: string };
  };
  out(
    `coin ${proof.coinCode ?? '?'}, snapshot ${proof.snapshotAt ?? '?'}, leaf #${proof.leaf?.index ?? '?'}, balance ${proof.leaf?.balance ?? '?'} base units`,
  );
  if (result.ok) out(`leaf hash ${result.leafHash}`);
  for (const s of result.steps) {
    out(`level ${s.level}: sibling on the ${s.siblingSide} (sum ${s.siblingSum}) -> ${s.hash} sum ${s.sum}`);
  }
  if (!result.ok) {
    out(`NOT VERIFIED: ${result.reason}`);
    return 1;
  }
  out(
    `VERIFIED: root ${result.rootHash}, total liabilities ${result.rootSum} base units include this balance`,
  );
  return 0;
}
