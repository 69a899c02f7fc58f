/**
 * Creates an operator account (DECISIONS §6, §10) for deployments, without prompts:
 *
 *   DATABASE_URL=postgres://... npm run create-operator -w apps/api -- --login-id ops2 --name "Kim Ops"
 *     password from --password, --password-stdin (first line of standard input) or OPERATOR_PASSWORD;
 *     login ID from --login-id or OPERATOR_LOGIN_ID; name from --name or OPERATOR_NAME;
 *     phone from --phone or OPERATOR_PHONE (E.164, or a Korean local number such as 010-1234-5678).
 *
 * Without DATABASE_URL it opens the embedded database under DATA_DIR (stop the server first: PGlite is
 * single-process). Migrations are applied first, so a fresh database works. Idempotent: an existing
 * operator is left unchanged. Exit codes: 0 created or already there, 1 error, 2 the login ID belongs to
 * an ordinary member (never promoted by this tool).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { toE164 } from '@p2p/contract';
import { loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { ensureOperator } from '../modules/operators/index.ts';

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function parse() {
  const { values } = parseArgs({
    options: {
      'login-id': { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean', default: false },
      name: { type: 'string' },
      phone: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  return values;
}

function phoneOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.startsWith('+')) return raw;
  const e164 = toE164('82', raw);
  if (!e164) throw new Error(`invalid phone: ${raw}`);
  return e164;
}

async function main(): Promise<number> {
  const args = parse();
  if (args.help) {
    out(
      'usage: create-operator --login-id ID [--password PW | --password-stdin] [--name NAME] [--phone PHONE]',
    );
    return 0;
  }
  const loginId = args['login-id'] ?? process.env.OPERATOR_LOGIN_ID;
  const password = args['password-stdin']
    ? (readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '')
    : (args.password ?? process.env.OPERATOR_PASSWORD);
  if (!loginId || !password) throw new Error('a login ID and a password are required (see --help)');

  // Only the database settings matter here; the operator variables are read above.
  const config = loadConfig({ ...process.env, OPERATOR_LOGIN_ID: undefined, OPERATOR_PASSWORD: undefined });
  const dbh = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.pgPreparedStatements,
  });
  try {
    const applied = await migrate(dbh);
    if (applied.length) out(`applied migrations: ${applied.join(', ')}`);
    const r = await ensureOperator(dbh.db, {
      loginId,
      password,
      name: args.name ?? process.env.OPERATOR_NAME,
      phoneE164: phoneOf(args.phone ?? process.env.OPERATOR_PHONE),
    });
    const where = dbh.kind === 'postgres' ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
    if (r.outcome === 'created') out(`created operator ${r.loginId} (member id ${r.id}) in ${where}`);
    if (r.outcome === 'exists')
      out(`operator ${r.loginId} already exists (member id ${r.id}); nothing changed`);
    if (r.outcome === 'conflict-member') {
      out(`login ID ${r.loginId} belongs to an ordinary member (id ${r.id}); not promoted, nothing changed`);
      return 2;
    }
    return 0;
  } finally {
    await dbh.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`create-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
