import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../../../test/infra.ts';
import { type DbHandle, openDb } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import type { SmsProvider } from '../identity/index.ts';
import { createDispatcher } from './service.ts';

const BASE_URL = process.env.DATABASE_URL;

/** An SMS provider that records what it was given; numbers in `failFor` throw, as a carrier refusal would. */
function recordingSms(failFor: ReadonlySet<string> = new Set()) {
  const sent: { to: string; text: string }[] = [];
  const provider: SmsProvider = {
    kind: 'console',
    send: async () => undefined,
    sendText: async (to, text) => {
      if (failFor.has(to)) throw new Error('carrier refused');
      sent.push({ to, text });
    },
  };
  return { provider, sent };
}

/**
 * The notification dispatcher (DECISIONS §12): ids gathered for DISPATCH_BATCH_MS are claimed in one
 * statement; with two instances dispatching the same ids at once, every notification is sent exactly once, its
 * outcome recorded, and the kinds that are not SMS kinds are claimed without an SMS. Built on the database
 * alone (no app, so no other dispatcher listens).
 */
describe('notification dispatch in batches', () => {
  let fresh: FreshDatabase | null = null;
  let dbh: DbHandle;
  const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const phones = ['+821011110001', '+821011110002', '+821011110003'];

  beforeAll(async () => {
    fresh = BASE_URL ? await freshDatabase(BASE_URL, 'dispatch') : null;
    dbh = await openDb({ databaseUrl: fresh?.url, dataDir: '', inMemory: !fresh });
    await migrate(dbh);
    for (const [i, phone] of phones.entries()) {
      await sql`insert into members (login_id, nickname, name, country_code, phone_e164, password_hash)
        values (${`d${i}`}, ${`d${i}`}, 'Dispatch Test', '82', ${phone}, 'x')`.execute(dbh.db);
    }
  });
  afterAll(async () => {
    await dbh?.close();
    await fresh?.drop();
  });

  const notify = async (login: string, kind: string) => {
    const r = await sql<{ id: number }>`insert into notifications (member_id, kind)
      select id, ${kind} from members where login_id = ${login} returning id`.execute(dbh.db);
    return r.rows[0]?.id ?? 0;
  };
  const rows = (ids: number[]) =>
    dbh.db
      .selectFrom('notifications')
      .select(['id', 'sms_status', 'dispatched_at'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();

  it('sends each notification once when two instances dispatch the same ids at the same time', async () => {
    const ids = [
      await notify('d0', 'ORDER_REQUESTED'),
      await notify('d1', 'ORDER_PAID'),
      await notify('d2', 'ORDER_COMPLETED'),
      await notify('d0', 'MESSAGE'),
      await notify('d1', 'ORDER_EXPIRED'),
    ];
    const a = recordingSms();
    const b = recordingSms();
    const one = createDispatcher(dbh.db, a.provider, () => null, log);
    const two = createDispatcher(dbh.db, b.provider, () => null, log);
    await Promise.all(ids.flatMap((id) => [one.dispatch(id), two.dispatch(id)]));

    const sent = [...a.sent, ...b.sent];
    // four SMS kinds, each once; MESSAGE is not an SMS kind
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => s.text)).size).toBe(4);
    expect(sent.map((s) => s.to).sort()).toEqual([phones[0], phones[1], phones[1], phones[2]].sort());
    const after = await rows(ids);
    expect(after.map((r) => r.sms_status)).toEqual(['SENT', 'SENT', 'SENT', null, 'SENT']);
    expect(after.every((r) => r.dispatched_at !== null)).toBe(true);
  });

  it('records a refused SMS as FAILED and the others of the batch as SENT; a claimed id is not sent again', async () => {
    const ids = [await notify('d0', 'ORDER_PAID'), await notify('d2', 'ORDER_PAID')];
    const sms = recordingSms(new Set([phones[2] ?? '']));
    const dispatcher = createDispatcher(dbh.db, sms.provider, () => null, log);
    await Promise.all(ids.map((id) => dispatcher.dispatch(id)));
    expect((await rows(ids)).map((r) => r.sms_status)).toEqual(['SENT', 'FAILED']);
    expect(sms.sent.map((s) => s.to)).toEqual([phones[0]]);

    await Promise.all(ids.map((id) => dispatcher.dispatch(id)));
    await dispatcher.sweep();
    expect(sms.sent).toHaveLength(1);
  });
});
