import { ERROR_STATUS, type ErrorCode } from '@p2p/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDbUnavailable } from '../db/client.ts';
import { AppError, pgCode } from '../errors/index.ts';

const FIELD_CODE_RE = /^[A-Z][A-Z0-9_]*$/;

function zodIssueCode(message: string, code: string | undefined): string {
  if (FIELD_CODE_RE.test(message)) return message;
  if (code === 'invalid_type') return 'INVALID_TYPE';
  if (code === 'too_big') return 'TOO_LONG';
  if (code === 'unrecognized_keys') return 'UNKNOWN_FIELD';
  return 'INVALID_FORMAT';
}

function send(reply: import('fastify').FastifyReply, code: ErrorCode, data: Record<string, unknown> | null) {
  const status = ERROR_STATUS[code];
  return reply.status(status).send({ returnCode: status, returnMessage: code, returnData: data });
}

/**
 * The single error handler (DESIGN habit 2, DECISIONS §2): AppError -> its status and code; schema
 * failures -> 400 VALIDATION_FAILED with `fields`; malformed bodies -> 400/413; a database that cannot be
 * reached -> 503 DB_UNAVAILABLE (DECISIONS §14); anything else -> 500 INTERNAL_ERROR with nothing of the
 * cause in the answer (it goes to the log).
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return send(reply, err.code, err.data);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const path =
          v.instancePath.replace(/^\//, '').replaceAll('/', '.') || err.validationContext || 'body';
        const issue = v.params?.issue as { code?: string } | undefined;
        fields[path] ??= zodIssueCode(v.message ?? '', issue?.code);
      }
      return send(reply, 'VALIDATION_FAILED', { fields });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return send(reply, 'INTERNAL_ERROR', null);
    }
    if (isDbUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return send(reply, 'DB_UNAVAILABLE', null);
    }
    // Text PostgreSQL cannot store (NUL bytes, invalid encoding) is the client's fault, whichever module met it.
    const sqlState = pgCode(err);
    if (sqlState === '22021' || sqlState === '22P05') {
      return send(reply, 'VALIDATION_FAILED', { fields: { body: 'INVALID_FORMAT' } });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return send(reply, 'PAYLOAD_TOO_LARGE', null);
    if (status === 429) return send(reply, 'RATE_LIMITED', null);
    if (status >= 400 && status < 500) {
      const field =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError
          ? 'INVALID_JSON'
          : 'INVALID_FORMAT';
      return send(reply, 'VALIDATION_FAILED', { fields: { body: field } });
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 'INTERNAL_ERROR', null);
  });
}
