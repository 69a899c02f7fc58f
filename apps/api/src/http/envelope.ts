import { type Envelope, envelopeOf } from '@p2p/contract';
import type { z } from 'zod';

/** A success envelope (returnCode 0, returnMessage "OK"). */
export function ok<T>(returnData: T, returnMessage = 'OK'): Envelope<T> & { returnCode: 0 } {
  return { returnCode: 0, returnMessage, returnData };
}

/**
 * Response schemas for a route: the success envelope around `data` for 200. Error answers are built
 * by the error handler and need no per-route schema. Serializing through the schema filters out
 * any field the route did not declare.
 */
export function okResponse<T extends z.ZodType>(data: T, status: 200 | 201 = 200) {
  return { [status]: envelopeOf(data) } as Record<typeof status, ReturnType<typeof envelopeOf<T>>>;
}
