/**
 * The growth of bench/growth.ts: SQL that grows a migrated database through its real tables to the sizes of
 * issue 27 times `scale` (200,000 members, 50,000 listings, 2,000,000 orders over 12 months, 5,000,000
 * notifications, 1,000,000 chat messages, plus the audit log, withdrawals, SMS codes and refresh tokens that
 * come with such a market), with the ledger balanced: every delivered order is its `trade` entry (seller's
 * escrow -> buyer's available + fees), every listing's escrow its `escrow_hold`, every withdrawal its request and
 * completion, and the coins that backs them a `deposit` per member; balances are the sums of their postings.
 *
 * One member ("the busy member", returned) buys 20,000 x scale orders and sells as many on their own listing,
 * with as many purchase SMS codes for their phone and twice as many notifications: the member histories,
 * counts and checks are measured on them. Triggers and foreign key checks are off while loading
 * (session_replication_role = replica): history does not fire live events or NOTIFYs, and every id it writes
 * comes from the rows it just wrote. Not a test fixture: figures only.
 */
import pg from 'pg';

export interface GrowthSizes {
  members: number;
  listings: number;
  orders: number;
  notifications: number;
  messages: number;
  /** Orders the busy member bought, and as many sold. */
  busy: number;
  /** Operator actions in the audit log (listing approvals and member notes). */
  audit: number;
  /** Completed external withdrawals. */
  withdrawals: number;
  /** Expired refresh tokens (the retention purge's work). */
  refreshTokens: number;
}

/** The sizes times `scale` (at least a few rows of each). */
export function sizesAt(scale: number): GrowthSizes {
  const n = (full: number, min: number) => Math.max(min, Math.round(full * scale));
  return {
    members: n(200_000, 200),
    listings: n(50_000, 50),
    orders: n(2_000_000, 2_000),
    notifications: n(5_000_000, 5_000),
    messages: n(1_000_000, 1_000),
    busy: n(20_000, 20),
    audit: n(100_000, 100),
    withdrawals: n(200_000, 200),
    refreshTokens: n(400_000, 400),
  };
}

const COINS = `array['BTC','ETH','XRP','TRX']`;
// Won per coin, roughly: listings are priced within +-5% of these.
const PRICES = `array[50000000, 3000000, 700, 200]`;

/** The statements of the growth, in order; `$op` is the operator who approves the listings. */
function statements(s: GrowthSizes, operatorId: number, tag: string): [string, string][] {
  const { members: M, listings: L, orders: O, busy: B } = s;
  // Phone digit of this growth: the small and the grown phases write members side by side.
  const digit = tag === 'a' ? 3 : 4;
  // Live orders (REQUESTED, PAID, DISPUTED) are the newest ones, on OPEN listings (every tenth listing).
  // At least a page (20) of each live status, so the console queues of the small database show full pages as
  // the grown one's do: a page of 1 row beside a page of 20 measures the page size, not the growth.
  const live = Math.max(63, Math.round(O * 0.0005));
  const year = `interval '365 days'`;
  return [
    [
      'members',
      `create temp table g_members as
       with ins as (
         insert into members (login_id, nickname, name, country_code, phone_e164, password_hash, kyc_level,
                              bank_name, account_no, created_at, updated_at)
         select 'g${tag}' || g, 'g${tag}nick' || g,
                (array['Kim','Lee','Park','Choi','Jung','Kang','Cho','Yoon','Jang','Lim'])[1 + g % 10] || ' ' ||
                (array['Minsu','Jiwoo','Seoyeon','Hyunwoo','Jisoo','Donghyun','Yuna','Junho','Haeun','Taeyang'])[1 + (g / 10) % 10] ||
                ' ' || g,
                '82', '+8210${digit}' || lpad(g::text, 7, '0'), 'x', 1, 'KB국민은행', lpad(g::text, 12, '0'),
                now() - ${year} * (${M} - g + 1) / ${M} - interval '1 day',
                now() - ${year} * (${M} - g + 1) / ${M} - interval '1 day'
         from generate_series(1, ${M}) g
         returning id, login_id)
       select substr(login_id, 3)::int as n, id from ins;
       create unique index on g_members (n);
       analyze g_members`,
    ],
    [
      'wallets',
      `create temp table g_wallets as
       with ins as (
         insert into wallets (member_id, coin, address, derivation_index, destination_tag, created_at)
         select m.id, c.coin, 'growth-' || c.coin || '-' || m.id, 1000000 + m.id,
                case when c.coin = 'XRP' then 1000000 + m.id end, now() - ${year}
         from g_members m cross join unnest(${COINS}) as c(coin)
         returning id, member_id, coin)
       select * from ins;
       create unique index on g_wallets (member_id, coin);
       analyze g_wallets`,
    ],
    [
      'listings',
      // Listing k belongs to member k, in coin k mod 4; every tenth and listings 25-44 are OPEN, every
      // hundred-and-first and listings 2-24 that are not OPEN are PENDING_REVIEW, the rest CLOSED (sold out or
      // closed): a full page of each (20) even at the minimum sizes. Listing 1 is the busy member's, OPEN.
      `create temp table g_listings as
       with src as (
         select k, m.id as seller_id, (${COINS})[1 + k % 4] as coin,
                round((${PRICES})[1 + k % 4] * (0.95 + (k % 101) / 1000.0))::bigint as price,
                case when k = 1 or k % 10 = 0 or k between 25 and 44 then 'OPEN' when k % 101 = 0 or k <= 24 then 'PENDING_REVIEW' else 'CLOSED' end
                  as status
         from generate_series(1, ${L}) k join g_members m on m.n = k),
       ins as (
         insert into sell_listings (seller_id, wallet_id, coin, min_qty, max_qty, remaining_qty, unit_price_krw,
                                    bank_name, account_no, status, created_at, updated_at, closed_at)
         select src.seller_id, w.id, src.coin,
                round(10000.0 / src.price, 8) + 0.00000001, round(100000000.0 / src.price, 8),
                case when src.status = 'CLOSED' then 0 else round(50000000.0 / src.price, 8) end,
                src.price, 'KB국민은행', lpad(src.k::text, 12, '0'), src.status,
                now() - ${year} * (${L} - src.k + 1) / ${L} - interval '12 hours',
                now() - ${year} * (${L} - src.k + 1) / ${L} - interval '12 hours',
                case when src.status = 'CLOSED' then now() - ${year} * (${L} - src.k + 1) / ${L} end
         from src join g_wallets w on w.member_id = src.seller_id and w.coin = src.coin
         order by src.k
         returning id, seller_id, coin, unit_price_krw, status, remaining_qty)
       select row_number() over (order by id)::int as n, * from ins;
       create unique index on g_listings (n);
       analyze g_listings`,
    ],
    [
      'orders',
      // Order j: the first B are the busy member's purchases, the next B their sales on listing 1; the newest
      // ${live} are live on OPEN listings; the rest spread over every listing and buyer, over 12 months.
      `create temp table g_orders_src as
       select j,
              case when j > ${O} - ${live} then 10 * (1 + j % greatest(1, ${L} / 10))
                   when j > ${B} and j <= 2 * ${B} then 1
                   else 1 + (j::bigint * 7919) % ${L} end as ln,
              case when j <= ${B} then 1 else 1 + (j::bigint * 104729) % ${M} end as bn,
              case when j > ${O} - ${live} then (array['REQUESTED','PAID','DISPUTED'])[1 + j % 3]
                   when (j::bigint * 2654435761) % 100 < 74 then 'COMPLETED'
                   when (j::bigint * 2654435761) % 100 < 86 then 'EXPIRED'
                   when (j::bigint * 2654435761) % 100 < 97 then 'CANCELED'
                   else 'REJECTED' end as status,
              10000 + ((j::bigint * 37) % 990) * 1000 as krw,
              case when j > ${O} - ${live} then now() - make_interval(secs => ${O} - j + 1)
                   else now() - ${year} * (${O} - j + 1) / ${O} end as at
       from generate_series(1, ${O}) j;
       create temp table g_orders as
       with src as (
         select o.j, o.status, o.krw, o.at, l.id as listing_id, l.seller_id, l.coin, l.unit_price_krw as price,
                case when b.id = l.seller_id then b2.id else b.id end as buyer_id
         from g_orders_src o
         join g_listings l on l.n = o.ln
         join g_members b on b.n = o.bn
         join g_members b2 on b2.n = case when o.bn = ${M} then 1 else o.bn + 1 end),
       ins as (
         insert into buy_orders (listing_id, buyer_id, seller_id, coin, request_qty, request_krw, unit_price_krw,
           fee_qty, dest_type, dest_wallet_id, dest_address, status, txid, created_at, updated_at, completed_at,
           payment_deadline, paid_at, release_deadline, dispute_opens_at, disputed_at, expired_at, ended_at,
           ended_by, dispute_reason, dispute_opened_by)
         select src.listing_id, src.buyer_id, src.seller_id, src.coin, round(src.krw::numeric / src.price, 8),
           src.krw, src.price, trunc(round(src.krw::numeric / src.price, 8) * 0.002, 8), 'INTERNAL', w.id,
           'growth-' || src.coin || '-' || src.buyer_id, src.status,
           case when src.status = 'COMPLETED' then 'growth-${tag}-tx-' || src.j end,
           src.at, src.at, case when src.status = 'COMPLETED' then src.at + interval '9 minutes' end,
           src.at + interval '15 minutes',
           case when src.status in ('PAID','DISPUTED','COMPLETED','REJECTED') then src.at + interval '4 minutes' end,
           case when src.status in ('PAID','DISPUTED','COMPLETED','REJECTED') then src.at + interval '64 minutes' end,
           case when src.status in ('PAID','DISPUTED','COMPLETED','REJECTED') then src.at + interval '34 minutes' end,
           case when src.status = 'DISPUTED' then src.at + interval '40 minutes' end,
           case when src.status = 'EXPIRED' then src.at + interval '15 minutes' end,
           case when src.status = 'COMPLETED' then src.at + interval '9 minutes'
                when src.status = 'EXPIRED' then src.at + interval '15 minutes'
                when src.status in ('CANCELED','REJECTED') then src.at + interval '5 minutes' end,
           case when src.status = 'COMPLETED' then 'SELLER' when src.status = 'EXPIRED' then 'SYSTEM'
                when src.status = 'CANCELED' then 'BUYER' when src.status = 'REJECTED' then 'SELLER' end,
           case when src.status = 'DISPUTED' then 'PAYMENT_NOT_RECEIVED' end,
           case when src.status = 'DISPUTED' then 'SELLER' end
         from src join g_wallets w on w.member_id = src.buyer_id and w.coin = src.coin
         order by src.j
         returning id, listing_id, buyer_id, seller_id, coin, request_qty, fee_qty, status, created_at)
       select * from ins;
       drop table g_orders_src;
       analyze g_orders`,
    ],
    [
      'live orders: deadlines from now',
      // The live orders are minutes old: their deadlines lie ahead, as on a running market.
      `update buy_orders set payment_deadline = now() + interval '15 minutes',
              release_deadline = case when paid_at is not null then now() + interval '60 minutes' end,
              dispute_opens_at = case when paid_at is not null then now() + interval '30 minutes' end,
              paid_at = case when paid_at is not null then now() - interval '1 minute' end
       where id in (select id from g_orders where status in ('REQUESTED','PAID'))`,
    ],
    [
      'seller stats',
      `insert into seller_stats (member_id, completed_trades)
       select seller_id, count(*) from g_orders where status = 'COMPLETED' group by seller_id`,
    ],
    [
      'withdrawals',
      // One completed external withdrawal per member (the first ${s.withdrawals}), of a small amount of their
      // first listing's coin... or BTC for members without one.
      `create temp table g_transfers as
       with ins as (
         insert into transfers (wallet_id, member_id, coin, type, dest_type, status, address, amount, txid,
                                created_at, completed_at, approved_at, approved_by)
         select w.id, m.id, w.coin, 'WITHDRAW', 'EXTERNAL', 'COMPLETED', 'growth-out-' || m.id,
                case w.coin when 'BTC' then 0.001 when 'ETH' then 0.01 else 10 end, 'growth-wtx-' || m.id,
                now() - ${year} * (${s.withdrawals} - m.n + 1) / ${s.withdrawals},
                now() - ${year} * (${s.withdrawals} - m.n + 1) / ${s.withdrawals} + interval '1 hour',
                now() - ${year} * (${s.withdrawals} - m.n + 1) / ${s.withdrawals} + interval '30 minutes',
                ${operatorId}
         from g_members m join g_wallets w on w.member_id = m.id and w.coin = (${COINS})[1 + m.n % 4]
         where m.n <= ${s.withdrawals}
         order by m.n
         returning id, member_id, coin, amount)
       select * from ins`,
    ],
    [
      'ledger: postings staged',
      `create temp table g_post (ref text, kind text, member_id bigint, coin text, acct text, amount numeric);
       insert into g_post
       select 'order:' || o.id || ':complete', 'trade', p.member_id, o.coin, p.acct, p.amount
       from g_orders o cross join lateral (values
         (o.seller_id, 'escrow', -o.request_qty),
         (o.buyer_id, 'available', o.request_qty - o.fee_qty),
         (null::bigint, 'fees', o.fee_qty)) p(member_id, acct, amount)
       where o.status = 'COMPLETED' and p.amount <> 0;
       create temp table g_hold as
       select l.id, l.seller_id, l.coin,
              coalesce(sum(o.request_qty) filter (where o.status in ('COMPLETED','REQUESTED','PAID','DISPUTED')), 0)
                + l.remaining_qty as qty
       from g_listings l left join g_orders o on o.listing_id = l.id
       group by l.id, l.seller_id, l.coin, l.remaining_qty;
       insert into g_post
       select 'listing:' || h.id || ':escrow', 'escrow_hold', p.member_id, h.coin, p.acct, p.amount
       from g_hold h cross join lateral (values (h.seller_id, 'available', -h.qty), (h.seller_id, 'escrow', h.qty))
         p(member_id, acct, amount)
       where h.qty > 0;
       insert into g_post
       select 'withdraw:' || t.id, 'withdrawal_request', p.member_id, t.coin, p.acct, p.amount
       from g_transfers t cross join lateral (values (t.member_id, 'available', -t.amount),
         (null::bigint, 'withdrawal_pending', t.amount)) p(member_id, acct, amount);
       insert into g_post
       select 'withdraw:' || t.id || ':complete', 'withdrawal_complete', null, t.coin, p.acct, p.amount
       from g_transfers t cross join lateral (values ('withdrawal_pending', -t.amount), ('chain', t.amount))
         p(acct, amount);
       insert into g_post
       select 'deposit:' || d.coin || ':growth-' || d.member_id || ':0', 'deposit', p.member_id, d.coin, p.acct,
              p.amount
       from (select h.seller_id as member_id, h.coin, sum(h.qty) as qty from (
               select seller_id, coin, qty from g_hold where qty > 0
               union all select member_id, coin, amount from g_transfers) h
             group by h.seller_id, h.coin) d
       cross join lateral (values (null::bigint, 'chain', -d.qty), (d.member_id, 'available', d.qty))
         p(member_id, acct, amount)`,
    ],
    [
      'ledger: accounts, entries, postings',
      `insert into ledger_accounts (member_id, coin, kind, balance)
       select member_id, coin, acct, sum(amount) from g_post group by member_id, coin, acct
       on conflict (member_id, coin, kind) do update set balance = ledger_accounts.balance + excluded.balance;
       create temp table g_entries as
       with ins as (
         insert into ledger_entries (ref, kind, created_at)
         select ref, min(kind), now() from g_post group by ref order by ref
         returning id, ref)
       select * from ins;
       create unique index on g_entries (ref);
       analyze g_entries;
       insert into ledger_postings (entry_id, account_id, coin, amount)
       select e.id, a.id, p.coin, p.amount
       from g_post p join g_entries e on e.ref = p.ref
       join ledger_accounts a on a.coin = p.coin and a.kind = p.acct
         and coalesce(a.member_id, 0) = coalesce(p.member_id, 0)`,
    ],
    [
      'notifications',
      // The busy member gets 2 x busy; the rest spread over every member. All dispatched; one in 50 of the last
      // 11 days unread.
      `insert into notifications (member_id, kind, data, read_at, created_at, dispatched_at, sms_status)
       select m.id, (array['ORDER_REQUESTED','ORDER_PAID','ORDER_COMPLETED','MESSAGE'])[1 + i % 4], '{}'::jsonb,
              case when i % 50 <> 0 or i < ${Math.floor(s.notifications * 0.97)}
                   then now() - ${year} * (${s.notifications} - i + 1) / ${s.notifications} end,
              now() - ${year} * (${s.notifications} - i + 1) / ${s.notifications},
              now() - ${year} * (${s.notifications} - i + 1) / ${s.notifications}, 'OFF'
       from generate_series(1, ${s.notifications}) i
       join g_members m on m.n = case when i % ${Math.max(2, Math.floor(s.notifications / (2 * B)))} = 0 then 1
                                      else 1 + (i::bigint * 31) % ${M} end`,
    ],
    [
      'chat messages',
      // Spread over the orders; the busy member's newest purchase gets 100.
      `insert into order_messages (order_id, author_id, author_role, kind, text, created_at)
       select o.id, o.buyer_id, 'BUYER', 'TEXT', 'growth message ' || i, o.created_at + interval '1 minute'
       from generate_series(1, ${s.messages}) i
       join g_orders o on o.id = (select min(id) from g_orders) +
         case when i <= 100 then ${B} - 1 else (i::bigint * 7) % ${O} end`,
    ],
    [
      'sms codes',
      // A verified purchase check per order, for the buyer's phone.
      `insert into sms_codes (phone_e164, purpose, code_hash, expires_at, tries, verified_at, member_id, created_at)
       select m.phone_e164, 'member', 'x', o.created_at + interval '60 seconds', 0,
              o.created_at - interval '30 seconds', o.buyer_id, o.created_at - interval '60 seconds'
       from g_orders o join members m on m.id = o.buyer_id`,
    ],
    [
      'refresh tokens',
      `insert into refresh_tokens (member_id, family_id, token_hash, expires_at, rotated_at, created_at)
       select m.id, gen_random_uuid(), 'growth-${tag}-' || i, now() - ${year} * (${s.refreshTokens} - i + 1) / ${s.refreshTokens},
              now() - ${year} * (${s.refreshTokens} - i + 1) / ${s.refreshTokens} - interval '1 day',
              now() - ${year} * (${s.refreshTokens} - i + 1) / ${s.refreshTokens} - interval '30 days'
       from generate_series(1, ${s.refreshTokens}) i join g_members m on m.n = 1 + (i::bigint * 13) % ${M}`,
    ],
    [
      'audit log',
      `insert into audit_log (operator_id, action, target_type, target_id, reason, created_at)
       select ${operatorId}, 'listing.approve', 'listing', l.id::text, null,
              now() - ${year} * (${s.audit} - i + 1) / ${s.audit}
       from generate_series(1, ${s.audit}) i join g_listings l on l.n = 1 + (i - 1) % ${L}`,
    ],
  ];
}

/**
 * Grows the database at `url` (already migrated and seeded: `operatorId` exists) by `sizes`; `tag` tells two
 * growths of one database apart (logins `ga1`.., `gb1`..; phones +82103..., +82104...). Prints each step
 * and its time through `log`. Returns the busy member's id and their newest purchase and sale.
 */
export async function grow(
  url: string,
  sizes: GrowthSizes,
  operatorId: number,
  tag: 'a' | 'b',
  log: (line: string) => void,
): Promise<{ busyId: number; busyOrderId: number; busySaleId: number; listingId: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`set session_replication_role = replica; set work_mem = '256MB'`);
    for (const [name, text] of statements(sizes, operatorId, tag)) {
      const t0 = performance.now();
      await c.query(text);
      log(`  grow: ${name.padEnd(36)} ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    }
    const r = await c.query<{ busy: string; bought: string; sold: string; listing: string }>(
      `select m.id as busy,
              (select max(id) from g_orders where buyer_id = m.id) as bought,
              (select max(id) from g_orders where seller_id = m.id) as sold,
              (select id from g_listings where n = 1) as listing
       from g_members m where m.n = 1`,
    );
    await c.query('set session_replication_role = origin');
    const row = r.rows[0];
    if (!row) throw new Error('growth: no busy member');
    return {
      busyId: Number(row.busy),
      busyOrderId: Number(row.bought),
      busySaleId: Number(row.sold),
      listingId: Number(row.listing),
    };
  } finally {
    await c.end();
  }
}
