import {
  SIGNER_ERROR_STATUS,
  SIGNER_PATHS,
  SIGNER_WINDOW_MS,
  type SignerErrorCode,
  signMessageRequestSchema,
  signRequestSchema,
  verifyRequest,
} from '@p2p/signer-protocol';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { SignerKeys } from './keys.ts';
import { publicAccounts } from './keys.ts';
import { SignerError, type SignerService } from './service.ts';

/** Signatures seen within the window: a second call with one is a replay (SIGNER_REPLAY). */
class ReplayGuard {
  private readonly seen = new Map<string, number>();

  /** True the first time `signature` is offered; remembers it for twice the window. */
  admit(signature: string, nowMs: number): boolean {
    for (const [sig, until] of this.seen) {
      if (until > nowMs) break;
      this.seen.delete(sig);
    }
    if (this.seen.has(signature)) return false;
    this.seen.set(signature, nowMs + 2 * SIGNER_WINDOW_MS);
    return true;
  }
}

function refuse(reply: FastifyReply, code: SignerErrorCode, message: string, data?: Record<string, unknown>) {
  return reply.code(SIGNER_ERROR_STATUS[code]).send({ code, message, ...(data ? { data } : {}) });
}

function parse<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  let body: unknown;
  try {
    body = JSON.parse(typeof raw === 'string' ? raw : '');
  } catch {
    throw new SignerError('SIGNER_BAD_REQUEST', 'the body is not JSON');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new SignerError('SIGNER_BAD_REQUEST', fields);
  }
  return parsed.data;
}

export interface SignerAppOptions {
  token: string;
  keys: SignerKeys;
  service: SignerService;
  logLevel?: string;
  now?: () => number;
}

/**
 * The signer's HTTP face (SIGNER-PROTOCOL "Transport"): /healthz without auth; every /v1 call authenticated by
 * the HMAC headers over the raw body, within 60 s, never twice. Errors are `{code, message, data?}`.
 */
export function buildSignerApp(opts: SignerAppOptions): FastifyInstance {
  const now = opts.now ?? Date.now;
  const app = Fastify({ logger: { level: opts.logLevel ?? 'info' }, bodyLimit: 4 * 1024 * 1024 });
  const replays = new ReplayGuard();
  // The MAC covers the body as sent: keep it as a string (whatever its type) and parse after the check.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addHook('preHandler', async (req, reply) => {
    if (req.url === SIGNER_PATHS.health) return;
    const rawBody = typeof req.body === 'string' ? req.body : '';
    const verdict = verifyRequest(
      opts.token,
      req.headers,
      { method: req.method, path: req.url, rawBody },
      now(),
    );
    if (!verdict.ok) return refuse(reply, verdict.code, 'request authentication failed');
    if (!replays.admit(verdict.signature, now()))
      return refuse(reply, 'SIGNER_REPLAY', 'this request was seen');
  });
  app.setErrorHandler((err, req, reply) => {
    if (err instanceof SignerError) return refuse(reply, err.code, err.message, err.data);
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status < 500) return refuse(reply, 'SIGNER_BAD_REQUEST', (err as Error).message);
    req.log.error({ err }, 'signer error');
    return refuse(reply, 'SIGNER_INTERNAL', 'internal error');
  });
  app.setNotFoundHandler((_req, reply) => refuse(reply, 'SIGNER_NOT_FOUND', 'no such route'));
  app.get(SIGNER_PATHS.health, async () => ({ ok: true }));
  app.get(SIGNER_PATHS.accounts, async () => publicAccounts(opts.keys));
  app.post(SIGNER_PATHS.sign, async (req) => opts.service.sign(parse(signRequestSchema, req.body)));
  app.post(SIGNER_PATHS.signMessage, async (req) =>
    opts.service.signMessage(parse(signMessageRequestSchema, req.body)),
  );
  return app;
}
