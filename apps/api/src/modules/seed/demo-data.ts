import { COINS, type Coin } from '@p2p/contract';

/**
 * The demo data set (DECISIONS §9, §10 SEED_DEMO). Every field passes the member rules of SPEC §5
 * (login ID 4-16 letters/digits, nickname 4-12, password 6-20 of two kinds, E.164 phones) and every
 * listing the "Sell" rules (quantities with at most 4 decimals, whole-won prices). Prices are realistic
 * KRW levels of late 2025, so the purchase screens show sensible amounts.
 */

export interface DemoListing {
  coin: Coin;
  /** Deposited into the seller's wallet first (decimal string). */
  fund: string;
  minQty: string;
  maxQty: string;
  unitPriceKrw: number;
}

export interface DemoMember {
  loginId: string;
  password: string;
  nickname: string;
  name: string;
  phoneE164: string;
  bankName: string;
  accountNo: string;
  /** Coins to open (empty) wallets for, besides those of the listings. */
  wallets: Coin[];
  listings: DemoListing[];
  role: 'seller' | 'buyer';
}

/** Login ID of the operator the seed creates when OPERATOR_LOGIN_ID is not given (4-16 chars, SPEC §5). */
export const DEMO_OPERATOR_LOGIN_ID = 'operator';

export const DEMO_MEMBERS: DemoMember[] = [
  {
    loginId: 'demoseller',
    password: 'seller1234!',
    nickname: 'demoseller',
    name: '김민수',
    phoneE164: '+821055501001',
    bankName: 'KB국민은행',
    accountNo: '94380200112233',
    wallets: [],
    role: 'seller',
    listings: [
      { coin: 'BTC', fund: '1.2', minQty: '0.001', maxQty: '0.5', unitPriceKrw: 140_000_000 },
      { coin: 'ETH', fund: '25', minQty: '0.01', maxQty: '10', unitPriceKrw: 5_000_000 },
      { coin: 'XRP', fund: '50000', minQty: '100', maxQty: '20000', unitPriceKrw: 3_000 },
      { coin: 'TRX', fund: '500000', minQty: '1000', maxQty: '200000', unitPriceKrw: 400 },
    ],
  },
  {
    loginId: 'demobuyer',
    password: 'buyer1234!',
    nickname: 'demobuyer',
    name: '이영희',
    phoneE164: '+821055502002',
    bankName: '신한은행',
    accountNo: '110432556677',
    wallets: [...COINS],
    role: 'buyer',
    listings: [],
  },
  {
    loginId: 'demoseller2',
    password: 'seller1234!',
    nickname: 'coinpark',
    name: '박지훈',
    phoneE164: '+821055503003',
    bankName: '우리은행',
    accountNo: '1002938475610',
    wallets: [],
    role: 'seller',
    listings: [
      { coin: 'BTC', fund: '0.3', minQty: '0.0005', maxQty: '0.25', unitPriceKrw: 139_500_000 },
      { coin: 'ETH', fund: '6', minQty: '0.05', maxQty: '5', unitPriceKrw: 4_980_000 },
    ],
  },
  {
    loginId: 'demoseller3',
    password: 'seller1234!',
    nickname: 'sunnychoi',
    name: '최서연',
    phoneE164: '+821055504004',
    bankName: '하나은행',
    accountNo: '35791024681357',
    wallets: [],
    role: 'seller',
    listings: [
      { coin: 'XRP', fund: '12000', minQty: '50', maxQty: '10000', unitPriceKrw: 2_990 },
      { coin: 'TRX', fund: '150000', minQty: '500', maxQty: '120000', unitPriceKrw: 405 },
      { coin: 'BTC', fund: '0.12', minQty: '0.001', maxQty: '0.1', unitPriceKrw: 140_200_000 },
    ],
  },
  {
    loginId: 'demoseller4',
    password: 'seller1234!',
    nickname: 'jungtrade',
    name: '정우성',
    phoneE164: '+821055505005',
    bankName: '카카오뱅크',
    accountNo: '3333012345678',
    wallets: [],
    role: 'seller',
    listings: [
      { coin: 'ETH', fund: '3', minQty: '0.02', maxQty: '2.5', unitPriceKrw: 5_020_000 },
      { coin: 'TRX', fund: '80000', minQty: '1000', maxQty: '75000', unitPriceKrw: 398 },
    ],
  },
];
