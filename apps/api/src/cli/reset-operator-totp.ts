/**
 * Removes an operator's TOTP second factor (DECISIONS §13), e.g. after a lost phone, so the operator signs
 * in with the password alone and enrolls again from the console's Security page:
 *
 *   DATABASE_URL=postgres://... npm run reset-operator-totp -w apps/api -- --login-id ops2
 *
 * Without DATABASE_URL it opens the embedded database under DATA_DIR (stop the server first: PGlite is
 * single-process). Migrations are applied first. The reset is written to the audit log
 * (operator.totp.reset, data.via "cli"). Exit codes: 0 removed, or there was nothing to remove;
 * 1 error (missing --login-id, no operator with that login ID).
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { resetTotp } from '../modules/operators/index.ts';

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<number> {
  const { values: args } = parseArgs({
    options: {
      'login-id': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (args.help) {
    out('usage: reset-operator-totp --login-id ID');
    return 0;
  }
  const loginId = args['login-id'];
  if (!loginId) throw new Error('--login-id is required (see --help)');

  // Only the database settings matter here; an operator named in the environment is not created.
  const config = loadConfig({ ...process.env, OPERATOR_LOGIN_ID: undefined, OPERATOR_PASSWORD: undefined });
  const dbh = await openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    preparedStatements: config.pgPreparedStatements,
  });
  try {
    const applied = await migrate(dbh);
    if (applied.length) out(`applied migrations: ${applied.join(', ')}`);
    const op = await dbh.db
      .selectFrom('members')
      .select(['id', 'login_id'])
      .where(sql<string>`lower(login_id)`, '=', loginId.toLowerCase())
      .where('role', '=', 'OPERATOR')
      .executeTakeFirst();
    if (!op) throw new Error(`no operator with login ID ${loginId}`);
    if (await resetTotp(dbh.db, op.id, 'cli')) {
      out(
        `removed the TOTP of operator ${op.login_id} (member id ${op.id}); they sign in with the password and enroll again`,
      );
    } else {
      out(`operator ${op.login_id} (member id ${op.id}) has no TOTP; nothing changed`);
    }
    return 0;
  } finally {
    await dbh.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`reset-operator-totp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
