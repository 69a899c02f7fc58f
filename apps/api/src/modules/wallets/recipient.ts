import {
  maskName,
  type TransferRecipient,
  type TransferRecipientQuery,
  transferRecipient,
  transferRecipientQuery,
} from '@p2p/contract';
import { isValidAddress, normalizeAddress, xrpDepositAccount } from '../../chains/index.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { type Limit, makeLimit } from '../identity/index.ts';
import { activeRecipient } from './repo-recipient.ts';

/** Lookups per member and hour: enough for a member checking a few addresses, too few to walk XRP's tags. */
export const RECIPIENT_LOOKUPS_PER_HOUR = 30;

/**
 * Who an internal transfer from `memberId` of `q.coinCode` to `q.address` would reach, as the 내부 지갑 review
 * names them before the password is asked: the nickname masked as public lists mask names (DECISIONS §10,
 * first and last character kept). XRP's platform account names a member by `destTag` (DECISIONS §17), which
 * it then needs (400 VALIDATION_FAILED {destTag: REQUIRED}). Errors: 404 WALLET_NOT_FOUND (no member's
 * ACTIVE wallet there), 422 SELF_TRANSFER (the caller's own), 429 RATE_LIMITED {retryAfterSec} beyond
 * RECIPIENT_LOOKUPS_PER_HOUR (spent first, so a refused lookup counts too).
 */
export async function recipientOf(
  deps: Pick<AppDeps, 'db' | 'config'>,
  limit: Limit,
  memberId: number,
  q: TransferRecipientQuery,
): Promise<TransferRecipient> {
  await limit.consume(String(memberId));
  const coin = q.coinCode;
  const address = isValidAddress(coin, q.address, deps.config.chain.network)
    ? normalizeAddress(coin, q.address)
    : q.address;
  let by: { address: string } | { tag: number } = { address };
  if (coin === 'XRP' && address === xrpDepositAccount()) {
    if (q.destTag === undefined) throw new AppError('VALIDATION_FAILED', { fields: { destTag: 'REQUIRED' } });
    by = { tag: q.destTag };
  }
  const row = await activeRecipient(deps.db, coin, by);
  if (!row) throw new AppError('WALLET_NOT_FOUND');
  if (row.member_id === memberId) throw new AppError('SELF_TRANSFER');
  return { nickname: maskName(row.nickname) };
}

/** GET /api/v1/transfer/recipient (members only; see recipientOf). */
export async function recipientRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const limit = makeLimit(
    { name: 'member', points: RECIPIENT_LOOKUPS_PER_HOUR, durationSec: 3600 },
    deps.redis,
    'transfer-recipient',
  );
  app.get(
    '/api/v1/transfer/recipient',
    {
      preHandler: deps.guards.requireMember,
      schema: {
        tags: ['transfers'],
        querystring: transferRecipientQuery,
        response: okResponse(transferRecipient),
      },
    },
    async (request) => ok(await recipientOf(deps, limit, memberIdOf(request), request.query)),
  );
}
