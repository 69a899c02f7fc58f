import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSignerApp } from './app.ts';
import { loadSignerConfig, type SignerConfig } from './config.ts';
import { Journal } from './journal.ts';
import { deriveKeys, publicAccounts, type SignerKeys } from './keys.ts';
import { loadSeed, loadToken } from './seed.ts';
import { SignerService } from './service.ts';

/** `<DATA_DIR>/signer/accounts.json`: the public accounts, for an API started without XPUB_<COIN>. */
export const ACCOUNTS_FILE = 'accounts.json';

function writeAccounts(config: SignerConfig, keys: SignerKeys): void {
  mkdirSync(config.signerDir, { recursive: true, mode: 0o700 });
  const file = join(config.signerDir, ACCOUNTS_FILE);
  // Written aside and renamed: an API starting at this moment reads the old file or the new one, never half.
  writeFileSync(`${file}.tmp`, `${JSON.stringify(publicAccounts(keys), null, 2)}\n`, { mode: 0o644 });
  renameSync(`${file}.tmp`, file);
  chmodSync(file, 0o644);
}

/**
 * The signer process (DECISIONS §18): loads the seed (SIGNER_SEED_FILE; in production nothing else), the
 * token and the journal, writes the public accounts, listens on SIGNER_HOST:SIGNER_PORT and stops on
 * SIGTERM/SIGINT. Prints `signer listening on <url>` once it answers.
 */
async function main(): Promise<void> {
  const config = loadSignerConfig();
  const { seed, source } = loadSeed(config);
  const token = loadToken(config);
  const keys = deriveKeys(seed, config.network);
  seed.fill(0);
  const journal = new Journal(config.journalFile);
  const service = new SignerService(keys, journal, config);
  const app = buildSignerApp({ token, keys, service, logLevel: config.logLevel });
  writeAccounts(config, keys);
  if (!config.isProduction && !config.seedFile) {
    app.log.warn({ seed: source }, 'development seed: never send real coins to its addresses');
  }
  const url = await app.listen({ host: config.host, port: config.port });
  app.log.info({ network: config.network, journal: config.journalFile }, `signer listening on ${url}`);
  const stop = async () => {
    await app.close();
    journal.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((err: Error) => {
  console.error(`signer: ${err.message}`);
  process.exit(1);
});
