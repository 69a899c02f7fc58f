import type pg from 'pg';

/**
 * How many distinct statement texts one process names. Kysely writes one text per query shape (values are
 * always parameters), so the app has a few hundred at most; a text built from input (an `in (...)` list of
 * varying length) could add more, and past this bound such texts simply go unnamed, as before, instead of
 * growing every connection's server-side cache without end.
 */
export const MAX_NAMED_STATEMENTS = 500;

const names = new Map<string, string>();

/**
 * `select *`, `"t".*`, `returning *`: statements whose columns come from the table as it is at prepare time.
 * PostgreSQL refuses to run such a prepared statement once a migration adds a column ("cached plan must not
 * change result type"), which would break an old instance's connections during a rolling deploy; they go unnamed.
 */
const STAR_COLUMNS = /(?:\bselect|\breturning|,)\s+\*|\.\*/i;

/**
 * `on conflict (cols) where <predicate>`: PostgreSQL picks the partial unique index for the conflict while it
 * parses the statement, and with the predicate's value a parameter of a prepared statement it finds none ("no
 * unique or exclusion constraint matching the ON CONFLICT specification"); such statements go unnamed.
 */
const PARTIAL_CONFLICT_TARGET = /\bon conflict\s*\([^)]*\)\s*where\b/i;
const PATCHED = Symbol('preparedStatements');

/**
 * A single `select` (or `with ... select`) without parameters: named too (issue 27). A read whose constants are
 * written into its text so that PostgreSQL plans for them (the trade list's statuses and limits) has no
 * parameters left, and unnamed it was planned again on every run (0.8 ms for the home carousel's join, more than
 * running it). Transaction control and migration scripts (several statements, which the extended protocol
 * refuses) stay unnamed.
 */
const SINGLE_SELECT = /^\s*(?:select|with)\b[^;]*$/i;

/**
 * Makes `client` send each parameterized statement Kysely gives it as a named prepared statement.
 * node-postgres parses a named statement once per connection and then only binds and executes it, and
 * PostgreSQL can keep its plan: on the purchase path planning cost more server CPU than executing (the order
 * view's join: 1.06 ms to plan, 0.06 ms to run, measured with pg_stat_statements; bench/README.md). The
 * name is the same for the same text in every connection of the process (`k<n>`). Statements without
 * parameters (`begin`, `commit`, multi-statement migration scripts, which the extended protocol would refuse)
 * are sent as before, except a single select (SINGLE_SELECT). PostgreSQL's `plan_cache_mode = auto` still plans a statement for its values when the
 * generic plan would cost more (a partial index matched by a parameterized status), so a named statement
 * never gets a worse plan than it had. Statements that select `*` (STAR_COLUMNS) or name a partial index as
 * their conflict target (PARTIAL_CONFLICT_TARGET) stay unnamed. Idempotent: a client is patched once.
 */
export function usePreparedStatements(client: pg.PoolClient): void {
  const tagged = client as pg.PoolClient & { [PATCHED]?: true };
  if (tagged[PATCHED]) return;
  tagged[PATCHED] = true;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]) => {
      const [text, values] = args;
      if (
        typeof text === 'string' &&
        Array.isArray(values) &&
        (values.length > 0 || SINGLE_SELECT.test(text)) &&
        args.length === 2 &&
        !STAR_COLUMNS.test(text) &&
        !PARTIAL_CONFLICT_TARGET.test(text)
      ) {
        const name = nameFor(text);
        if (name) return query({ name, text, values });
      }
      return query(...args);
    },
  });
}

function nameFor(text: string): string | undefined {
  const known = names.get(text);
  if (known || names.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `k${names.size + 1}`;
  names.set(text, name);
  return name;
}
