import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { liveSessions } from '../identity/index.ts';
import { type LiveEvent, partsOf, type SessionEnd } from './bus.ts';
import { eventKnownTo, eventsAfter, latestEventId } from './repo.ts';

/** Bytes a stream may have queued in its socket before it counts as stalled and is closed (it resumes). */
const MAX_BUFFERED_BYTES = 64 * 1024;
/** Events held for a stream while its backlog is read; more closes it (the client resumes). */
const MAX_PENDING = 256;
/** Events replayed on one (re)connection; a longer gap is answered with `reset` (refetch everything). */
const MAX_REPLAY = 500;
/** Ids remembered per stream to drop an event met twice (live and in the catch-up read). */
const RECENT_IDS = 64;
/** The longest a timer can wait (setTimeout fires at once beyond it). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Why the server ends a stream, sent as its last event (`end` {reason}): TOKEN_EXPIRED (the client refreshes its
 * token, then reconnects) or SESSION_ENDED (logout, password change, suspension: a reconnect is refused).
 */
export type EndReason = 'TOKEN_EXPIRED' | 'SESSION_ENDED';

/**
 * The SSE frames of one event, each serialized once however many streams it goes to (an operators' event goes to
 * every operator's stream, a member's to each of their tabs). A `change` row is several events, each with the
 * row's id: a stream gets only the parts meant for it.
 */
class Frames {
  private unfolded: LiveEvent[] | null = null;
  private readonly text: string[] = [];
  constructor(readonly e: LiveEvent) {}

  /** The events the row stands for (partsOf), unfolded once. */
  get parts(): LiveEvent[] {
    this.unfolded ??= partsOf(this.e);
    return this.unfolded;
  }

  /** The frames `s` may see, concatenated ('' for none). */
  for(s: Stream): string {
    if (this.e.type !== 'change') {
      if (!s.sees(this.e)) return '';
      this.text[0] ??= frame(this.e.id, this.e);
      return this.text[0];
    }
    const parts = this.parts;
    let chunk = '';
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as LiveEvent;
      if (!s.sees(p)) continue;
      this.text[i] ??= frame(this.e.id, p);
      chunk += this.text[i];
    }
    return chunk;
  }
}

const frame = (id: number, p: LiveEvent) =>
  `id: ${id}\nevent: ${p.type}\ndata: ${JSON.stringify(p.data)}\n\n`;

/** One open event stream of one member (GET /api/v1/events). */
class Stream {
  lastId = 0;
  ready = false;
  pending: LiveEvent[] = [];
  recent: number[] = [];
  closed = false;
  constructor(
    readonly memberId: number,
    readonly operator: boolean,
    readonly sid: string,
    readonly res: ServerResponse,
    readonly onClose: () => void,
  ) {}

  /** Whether this stream may see one (unfolded) event. */
  sees(e: LiveEvent): boolean {
    return e.memberId === this.memberId || (e.memberId === null && this.operator);
  }

  push(f: Frames): void {
    if (this.closed) return;
    if (!this.ready) {
      this.pending.push(f.e);
      if (this.pending.length > MAX_PENDING) this.close();
      return;
    }
    this.write(f);
  }

  write(f: Frames): void {
    const id = f.e.id;
    if (this.recent.includes(id)) return;
    this.recent.push(id);
    if (this.recent.length > RECENT_IDS) this.recent.shift();
    if (id > this.lastId) this.lastId = id;
    const chunk = f.for(this);
    if (chunk) this.send(chunk);
  }

  send(chunk: string): void {
    if (this.closed) return;
    // A client that does not read is cut off instead of growing this process's memory; it resumes later.
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.close();
      return;
    }
    this.res.write(chunk);
  }

  /** Says why in a last `end` event, then closes. */
  end(reason: EndReason): void {
    this.send(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.res.end();
    this.onClose();
  }
}

export interface StreamOptions {
  memberId: number;
  operator: boolean;
  /** The session (refresh-token family) of the access token that opened the stream. */
  sid: string;
  /** The Last-Event-ID the client sent (null: start from now). */
  lastEventId: number | null;
  /** When the access token expires (epoch ms): the stream ends then, the client reconnects with a fresh one. */
  expiresAtMs: number;
}

/**
 * The open event streams of this API instance (DECISIONS §12). Events from the bus go to the streams of
 * their member (or of every operator); a new or resumed stream first replays the backlog after its
 * Last-Event-ID from member_events, holding live events meanwhile. Memory per stream is bounded (pending
 * queue, socket buffer, recent ids); one interval writes every stream's heartbeat. A stream lives no longer
 * than its access token and its session (DECISIONS §21): it ends when the token expires, and when the session
 * is revoked on any instance (endSession, fed by the bus) or found dead on a recheck (open, recheckSessions).
 */
export class EventHub {
  private readonly byMember = new Map<number, Set<Stream>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: { heartbeatSec: number; maxStreamsPerMember: number },
  ) {
    this.heartbeat = setInterval(() => this.beat(), opts.heartbeatSec * 1000);
    this.heartbeat.unref();
  }

  /** Open streams on this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.byMember.values()) n += set.size;
    return n;
  }

  private *all(): Generator<Stream> {
    for (const set of this.byMember.values()) yield* set;
  }

  private beat(): void {
    for (const s of this.all()) s.send(': heartbeat\n\n');
  }

  /** Delivers a committed event to the streams that may see it. */
  deliver(e: LiveEvent): void {
    const f = new Frames(e);
    if (e.type !== 'change') {
      if (e.memberId !== null) {
        const set = this.byMember.get(e.memberId);
        if (set) for (const s of set) s.push(f);
        return;
      }
      for (const s of this.all()) if (s.sees(e)) s.push(f);
      return;
    }
    // one row for every party told: each stream gets it once and writes the parts meant for it
    const told = new Set<Stream>();
    let operators = false;
    for (const p of f.parts) {
      if (p.memberId === null) operators = true;
      else for (const s of this.byMember.get(p.memberId) ?? []) told.add(s);
    }
    if (operators) for (const s of this.all()) if (s.operator) told.add(s);
    for (const s of told) s.push(f);
  }

  /**
   * Serves one stream on `res` (headers already written): registers it, replays the backlog after
   * `lastEventId` (or sends `reset` when the backlog no longer reaches it), then goes live.
   */
  async open(res: ServerResponse, o: StreamOptions): Promise<void> {
    let set = this.byMember.get(o.memberId);
    if (!set) {
      set = new Set();
      this.byMember.set(o.memberId, set);
    }
    const s: Stream = new Stream(o.memberId, o.operator, o.sid, res, () => {
      clearTimeout(expiry);
      const cur = this.byMember.get(o.memberId);
      cur?.delete(s);
      if (cur?.size === 0) this.byMember.delete(o.memberId);
    });
    const expiry = setTimeout(
      () => s.end('TOKEN_EXPIRED'),
      Math.min(MAX_TIMER_MS, Math.max(0, o.expiresAtMs - Date.now())),
    );
    expiry.unref();
    set.add(s);
    // The oldest streams of a member go first: a member cannot hold more than the limit open.
    while (set.size > this.opts.maxStreamsPerMember) {
      const oldest = set.values().next().value;
      if (!oldest) break;
      oldest.close();
    }
    res.on('close', () => s.close());
    try {
      // The guard found the session live, but a revocation announced before this stream was registered would
      // have passed it by: one look now that it is.
      if (!(await liveSessions(this.db, [o.sid])).has(o.sid)) {
        s.end('SESSION_ENDED');
        return;
      }
      await this.catchUp(s, o.lastEventId);
    } catch (err) {
      this.log.warn({ err }, 'live events: backlog read failed');
      s.close();
      return;
    }
    if (s.closed) return;
    s.ready = true;
    const held = s.pending;
    s.pending = [];
    for (const e of held.sort((a, b) => a.id - b.id)) s.write(new Frames(e));
  }

  /** A session ended on some instance: its streams on this one end (all of the member's when `sid` is null). */
  endSession(e: SessionEnd): void {
    for (const s of [...(this.byMember.get(e.memberId) ?? [])]) {
      if (e.sid === null || s.sid === e.sid) s.end('SESSION_ENDED');
    }
  }

  /** Ends the streams whose session is no longer live (after the bus reconnected: endings may have been missed). */
  async recheckSessions(): Promise<void> {
    const open = [...this.all()].filter((s) => !s.closed);
    if (open.length === 0) return;
    const live = await liveSessions(this.db, [...new Set(open.map((s) => s.sid))]);
    for (const s of open) if (!live.has(s.sid)) s.end('SESSION_ENDED');
  }

  private async catchUp(s: Stream, lastEventId: number | null): Promise<void> {
    if (lastEventId === null) {
      s.lastId = await latestEventId(this.db);
      return;
    }
    s.lastId = lastEventId;
    if (lastEventId > 0) {
      if (!(await eventKnownTo(this.db, lastEventId, s))) {
        s.send('event: reset\ndata: {}\n\n');
        s.lastId = await latestEventId(this.db);
        return;
      }
    }
    await this.replay(s);
  }

  private async replay(s: Stream): Promise<void> {
    const rows = await eventsAfter(this.db, s.lastId, s, MAX_REPLAY + 1);
    if (rows.length > MAX_REPLAY) {
      s.send('event: reset\ndata: {}\n\n');
      s.lastId = Number(rows[rows.length - 1]?.id ?? s.lastId);
      return;
    }
    for (const r of rows) {
      s.write(new Frames({ id: Number(r.id), memberId: r.member_id, type: r.type, data: r.data }));
    }
  }

  /** After the bus reconnected: every ready stream reads what it may have missed from the backlog. */
  async catchUpAll(): Promise<void> {
    for (const s of [...this.all()]) {
      if (!s.ready || s.closed) continue;
      await this.replay(s).catch((err) => this.log.warn({ err }, 'live events: catch-up failed'));
    }
  }

  /** Ends every stream (app close: open streams must not hold the server open). */
  closeAll(): void {
    clearInterval(this.heartbeat);
    for (const s of [...this.all()]) s.close();
  }
}
