import {
  type Coin,
  toUnits,
  transfer,
  transferListQuery,
  transferPage,
  transferRequestBody,
  travelRuleQuoteOut,
  travelRuleQuoteQuery,
  type Wallet,
  wallet,
  walletCreateBody,
  walletList,
} from '@p2p/contract';
import type { AppDeps } from '../../deps.ts';
import { memberIdOf } from '../../http/auth.ts';
import { ok, okResponse } from '../../http/envelope.ts';
import type { FastifyZod } from '../../http/types.ts';
import { bankRoutes } from '../bank/index.ts';
import { type Hold, holdsOfMember, holdView } from './holds.ts';
import { recipientRoutes } from './recipient.ts';
import { createWallet, listWallets, type WalletBalances } from './service.ts';
import { listTransfers, requestTransfer, transferOut } from './transfers.ts';
import { travelRuleQuote } from './travel-rule.ts';

/**
 * Wallets and transfers (SPEC §7, DECISIONS §5); the operator's deposit and withdrawal calls are in
 * ops-routes.ts, registered with the operator API.
 * The chain keys they derive addresses with are installed by app.ts before this registers.
 */
export default async function walletsRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const member = deps.guards.requireMember;
  // DECISIONS §19's 1원 check: registered here, beside the wallets it guards, to keep buildApp as it was.
  await app.register(bankRoutes, deps);
  // The member sees the external withdrawal fee on the review before confirming (DECISIONS §13).
  const withFee = (w: WalletBalances, holds: Map<Coin, Hold[]>): Wallet => ({
    ...w,
    withdrawFee: deps.config.chain.withdrawFees[w.coinCode],
    ...holdView(toUnits(w.balance), holds.get(w.coinCode) ?? []),
  });
  const holdsOf = (memberId: number) => holdsOfMember(deps.db, deps.config.trust.holds, memberId);

  app.get(
    '/api/v1/wallets',
    { preHandler: member, schema: { tags: ['wallets'], response: okResponse(walletList) } },
    async (request) => {
      const memberId = memberIdOf(request);
      const holds = await holdsOf(memberId);
      return ok((await listWallets(deps.db, memberId)).map((w) => withFee(w, holds)));
    },
  );

  app.post(
    '/api/v1/wallets/create',
    {
      preHandler: member,
      schema: { tags: ['wallets'], body: walletCreateBody, response: okResponse(wallet) },
    },
    async (request) => {
      const memberId = memberIdOf(request);
      const created = await createWallet(deps.db, memberId, request.body.coinCode);
      const all = await listWallets(deps.db, memberId);
      const out = all.find((w) => w.id === created.id);
      if (!out) throw new Error('created wallet not listed');
      return ok(withFee(out, await holdsOf(memberId)));
    },
  );

  await transferRoutes(app, deps);
  await recipientRoutes(app, deps);
}

/** GET /transfer, the Travel Rule quote and POST /transfer/request (SPEC §7, DECISIONS §5, §18, §19). */
async function transferRoutes(app: FastifyZod, deps: AppDeps): Promise<void> {
  const member = deps.guards.requireMember;
  app.get(
    '/transfer',
    {
      preHandler: member,
      schema: { tags: ['transfers'], querystring: transferListQuery, response: okResponse(transferPage) },
    },
    async (request) =>
      ok(
        await listTransfers(
          deps.db,
          memberIdOf(request),
          request.query,
          deps.config.withdrawals.explorerTxUrl,
        ),
      ),
  );

  app.get(
    '/api/v1/travel-rule/quote',
    {
      preHandler: member,
      schema: {
        tags: ['transfers'],
        querystring: travelRuleQuoteQuery,
        response: okResponse(travelRuleQuoteOut),
      },
    },
    async (request) => ok(await travelRuleQuote(deps, request.query.coinCode, request.query.amount)),
  );

  app.post(
    '/transfer/request',
    {
      config: { idempotent: true },
      preHandler: member,
      schema: { tags: ['transfers'], body: transferRequestBody, response: okResponse(transfer) },
    },
    async (request) =>
      ok(
        transferOut(
          await requestTransfer(deps, memberIdOf(request), request.body),
          deps.config.withdrawals.explorerTxUrl,
        ),
      ),
  );
}
