import { createHash, randomBytes } from 'node:crypto';
import { type Coin, sellListingCreateBody } from '@p2p/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { pgCode } from '../../errors/index.ts';
import { seedVerifiedAccount } from '../bank/index.ts';
import { hashPassword, insertMember, memberByLoginId } from '../identity/index.ts';
import { grantKycLevel } from '../kyc/index.ts';
import { approveListing, createListing, hasActiveListing } from '../listings/index.ts';
import { ensureOperator } from '../operators/index.ts';
import { createWallet, creditDeposit, findActiveWallet } from '../wallets/index.ts';
import { DEMO_MEMBERS, DEMO_OPERATOR_LOGIN_ID, type DemoListing, type DemoMember } from './demo-data.ts';

export interface SeedResult {
  operator: { loginId: string; password: string | null; id: number };
  members: { loginId: string; password: string; role: DemoMember['role']; id: number }[];
  listingsOpened: number;
}

/**
 * Seeds the demo data (DECISIONS §9, §10): an operator (OPERATOR_LOGIN_ID, else `ops` with a generated
 * password), the demo members with known passwords and bank details, their wallets funded through the
 * real deposit path (creditDeposit) and OPEN listings in all four coins (createListing + approveListing).
 * Idempotent: existing members, wallets, deposits (same txid) and active listings are kept, so an explicit
 * SEED_DEMO=1 on a seeded database changes nothing. Prints the credentials in one log record.
 * Throws in production (DECISIONS §13): demo passwords and unbacked balances never reach a real deployment.
 */
export async function seedDemo(deps: AppDeps, log: FastifyBaseLogger): Promise<SeedResult | null> {
  if (deps.config.isProduction) throw new Error('demo data is never seeded in production (SEED_DEMO)');
  const { db } = deps;
  const given = deps.config.operator;
  const generated = given ? null : `Ops-${randomBytes(6).toString('hex')}`;
  const op = await ensureOperator(
    db,
    given ?? { loginId: DEMO_OPERATOR_LOGIN_ID, password: generated ?? '' },
  );
  if (op.outcome === 'conflict-member') {
    log.warn(
      { loginId: op.loginId },
      'demo seed skipped: the operator login ID belongs to an ordinary member',
    );
    return null;
  }
  const result: SeedResult = {
    operator: { loginId: op.loginId, password: op.outcome === 'created' ? generated : null, id: op.id },
    members: [],
    listingsOpened: 0,
  };
  for (const m of DEMO_MEMBERS) {
    const id = await ensureDemoMember(db, m);
    if (id === null) {
      log.warn({ loginId: m.loginId }, 'demo member skipped: its login ID, nickname or phone is taken');
      continue;
    }
    result.members.push({ loginId: m.loginId, password: m.password, role: m.role, id });
    const coins = new Set<Coin>([...m.wallets, ...m.listings.map((l) => l.coin)]);
    for (const coin of coins) await ensureWallet(db, id, coin);
    for (const l of m.listings) {
      if (await openDemoListing(db, op.id, id, m, l)) result.listingsOpened++;
    }
  }
  printCredentials(log, result, given !== undefined);
  return result;
}

/** A demo member's bank account as 1원-verified (DECISIONS §19: demo members trade at once). */
const demoAccount = (m: DemoMember) => ({ bankName: m.bankName, accountNo: m.accountNo, holderName: m.name });

/** Inserts a demo member (argon2id password, bank details, identity level 2) unless its login ID exists; null when taken. */
async function ensureDemoMember(db: Db, m: DemoMember): Promise<number | null> {
  const existing = await memberByLoginId(db, m.loginId);
  if (existing?.role === 'MEMBER')
    await seedVerifiedAccount(db, { memberId: existing.id, ...demoAccount(m) });
  if (existing) return existing.role === 'MEMBER' ? existing.id : null;
  try {
    const id = await insertMember(db, {
      loginId: m.loginId,
      nickname: m.nickname,
      name: m.name,
      phoneE164: m.phoneE164,
      passwordHash: await hashPassword(m.password),
      role: 'MEMBER',
      bankName: m.bankName,
      accountNo: m.accountNo,
    });
    // DECISIONS §19: demo members are seeded at level 2 with a 1원-verified account, so `npm start` trades at once.
    await grantKycLevel(db, id, 2);
    await seedVerifiedAccount(db, { memberId: id, ...demoAccount(m) });
    return id;
  } catch (err) {
    if (pgCode(err) === '23505') return null;
    throw err;
  }
}

async function ensureWallet(db: Db, memberId: number, coin: Coin): Promise<{ id: number; address: string }> {
  return (await findActiveWallet(db, memberId, coin)) ?? (await createWallet(db, memberId, coin));
}

/** A stable 64-hex "chain txid" per member and coin, so a repeated seed credits nothing twice. */
function demoTxid(loginId: string, coin: Coin): string {
  return createHash('sha256').update(`demo-seed:${loginId}:${coin}`).digest('hex');
}

/**
 * Funds the wallet through the deposit path and opens the listing (create + operator approval), unless
 * the seller already has an active listing of that coin. Returns true when a listing was opened.
 */
async function openDemoListing(
  db: Db,
  operatorId: number,
  sellerId: number,
  m: DemoMember,
  l: DemoListing,
): Promise<boolean> {
  if (await hasActiveListing(db, sellerId, l.coin)) return false;
  const wallet = await ensureWallet(db, sellerId, l.coin);
  await creditDeposit(db, {
    coin: l.coin,
    address: wallet.address,
    amount: l.fund,
    txid: demoTxid(m.loginId, l.coin),
    index: 0,
  });
  const body = sellListingCreateBody.parse({
    walletId: wallet.id,
    minQty: l.minQty,
    maxQty: l.maxQty,
    unitPriceKrw: l.unitPriceKrw,
    bankName: m.bankName,
    accountNo: m.accountNo,
  });
  const listing = await createListing(db, sellerId, body);
  await approveListing(db, operatorId, listing.listingId);
  return true;
}

function printCredentials(log: FastifyBaseLogger, r: SeedResult, operatorFromEnv: boolean): void {
  const opPassword = r.operator.password ?? (operatorFromEnv ? '(OPERATOR_PASSWORD)' : '(unchanged)');
  const members = r.members.map((m) => `${m.role} ${m.loginId} / ${m.password}`).join(', ');
  log.info(
    {
      demo: {
        operator: r.operator.loginId,
        members: r.members.map((m) => m.loginId),
        listingsOpened: r.listingsOpened,
      },
    },
    `DEMO ACCOUNTS (SEED_DEMO) - operator console /ops: ${r.operator.loginId} / ${opPassword}; ` +
      `members: ${members}`,
  );
}
