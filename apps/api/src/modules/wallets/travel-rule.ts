import {
  type Beneficiary,
  type Coin,
  type TravelRuleQuoteOut,
  type TravelRuleRecord,
  toUnits,
} from '@p2p/contract';
import type { Selectable } from 'kysely';
import { pino } from 'pino';
import type { DbOrTx, Tx } from '../../db/client.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../errors/index.ts';
import { verifiedNameOf } from '../bank/index.ts';
import { createPriceService, type PriceService } from '../prices/index.ts';
import { insertTravelRule, travelRulesOf } from './repo-travel-rule.ts';
import type { WithdrawalTravelRuleTable } from './tables.ts';

type TravelDeps = Pick<AppDeps, 'db' | 'config' | 'redis'>;

/** The message a VASP-to-VASP Travel Rule network carries (IVMS 101's core: originator and beneficiary). */
export interface TravelRuleMessage {
  transferId: number;
  coin: Coin;
  amount: string;
  address: string;
  originator: { name: string };
  beneficiary: Beneficiary;
}

/**
 * `TRAVEL_RULE_PROVIDER` (DECISIONS §19): hands the message to a Travel Rule network (CODE, VerifyVASP, TRUST
 * in real use) and answers its reference. Throws when it cannot, and the withdrawal is then not made.
 */
export interface TravelRuleProvider {
  readonly kind: 'console';
  send(m: TravelRuleMessage): Promise<{ ref: string }>;
}

const log = pino({ name: 'travel-rule' });

/** Records the message in the log (no network); the record itself is the withdrawal's table row. */
export const consoleTravelRule: TravelRuleProvider = {
  kind: 'console',
  async send(m) {
    log.info(
      { transferId: m.transferId, coin: m.coin, beneficiaryKind: m.beneficiary.kind },
      'travel rule message',
    );
    return { ref: `console:${m.transferId}` };
  },
};

// One price service per app (keyed by its config), sharing the Redis cache with GET /api/v1/prices.
const priceServices = new WeakMap<object, PriceService>();
function pricesOf(deps: TravelDeps): PriceService {
  let s = priceServices.get(deps.config);
  if (!s) {
    const p = deps.config.prices;
    s = createPriceService({
      source: p.provider,
      upstreamUrl: p.upstreamUrl,
      file: p.file,
      redis: deps.redis,
      log: pino({ level: deps.config.logLevel }),
    });
    priceServices.set(deps.config, s);
  }
  return s;
}

/** `units` (10^-8 coin) in whole won at the current price, rounded down; null when no price is available. */
export async function valueKrw(deps: TravelDeps, coin: Coin, units: bigint): Promise<number | null> {
  try {
    const price = (await pricesOf(deps).get()).prices.find((x) => x.coin === coin);
    return price ? Number((BigInt(price.krw) * units) / 100_000_000n) : null;
  } catch {
    return null;
  }
}

/** What the withdrawal's transaction stores when the Travel Rule applies. */
export interface TravelRuleDraft {
  originatorName: string;
  beneficiary: Beneficiary;
  valueKrw: number | null;
}

/**
 * The Travel Rule check of an external withdrawal (DECISIONS §19), before its transaction: worth at least
 * TRAVEL_RULE_MIN_KRW at the current price, or unpriceable (no price: the rule is applied, never skipped), it
 * needs `beneficiary` (422 TRAVEL_RULE_INFO_REQUIRED {minKrw}). Returns what to store, or null below the line.
 */
export async function travelRuleDraft(
  deps: TravelDeps,
  memberId: number,
  coin: Coin,
  amount: string,
  beneficiary: Beneficiary | undefined,
): Promise<TravelRuleDraft | null> {
  const minKrw = deps.config.trust.travelRule.minKrw;
  const value = await valueKrw(deps, coin, toUnits(amount));
  if (value !== null && value < minKrw) return null;
  if (!beneficiary) throw new AppError('TRAVEL_RULE_INFO_REQUIRED', { minKrw });
  const originatorName = await verifiedNameOf(deps.db, memberId);
  if (originatorName === undefined) throw new AppError('UNAUTHORIZED');
  return { originatorName, beneficiary, valueKrw: value };
}

/** Sends the message and stores the record in the withdrawal's transaction (a refusal rolls both back). */
export async function recordTravelRule(
  tx: Tx,
  d: TravelRuleDraft,
  w: { transferId: number; coin: Coin; amount: string; address: string },
  provider: TravelRuleProvider = consoleTravelRule,
): Promise<void> {
  const { ref } = await provider.send({
    ...w,
    originator: { name: d.originatorName },
    beneficiary: d.beneficiary,
  });
  await insertTravelRule(tx, {
    transfer_id: w.transferId,
    originator_name: d.originatorName,
    beneficiary_name: d.beneficiary.name,
    beneficiary_kind: d.beneficiary.kind,
    vasp_name: d.beneficiary.vaspName,
    value_krw: d.valueKrw,
    provider: provider.kind,
    provider_ref: ref,
  });
}

/** The console's view of a stored record. */
export function travelRuleOut(r: Selectable<WithdrawalTravelRuleTable>): TravelRuleRecord {
  return {
    originatorName: r.originator_name,
    beneficiaryName: r.beneficiary_name,
    beneficiaryKind: r.beneficiary_kind,
    vaspName: r.vasp_name,
    valueKrw: r.value_krw === null ? null : Number(r.value_krw),
    provider: r.provider,
    providerRef: r.provider_ref,
  };
}

/** The console's Travel Rule records of these withdrawals, by transfer id (DECISIONS §19 "shown to operators"). */
export async function travelRulesById(
  db: DbOrTx,
  transferIds: number[],
): Promise<Map<number, TravelRuleRecord>> {
  const rows = await travelRulesOf(db, transferIds);
  return new Map(rows.map((r) => [r.transfer_id, travelRuleOut(r)]));
}

/**
 * GET /api/v1/travel-rule/quote (the withdraw screen): whether `amount` of `coin` needs a beneficiary now.
 * Without a price it does (the rule is applied, never skipped).
 */
export async function travelRuleQuote(
  deps: TravelDeps,
  coin: Coin,
  amount: string,
): Promise<TravelRuleQuoteOut> {
  const minKrw = deps.config.trust.travelRule.minKrw;
  const value = await valueKrw(deps, coin, toUnits(amount));
  return { required: value === null || value >= minKrw, minKrw, valueKrw: value };
}
