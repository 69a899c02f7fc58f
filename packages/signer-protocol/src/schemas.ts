import { z } from 'zod';

/**
 * The calls between the API and the signer (DECISIONS §18, docs/architecture.md "The signer"). Public data
 * only: no key material ever crosses this protocol. Integers that may exceed 2^53 (wei, drops, sun) travel as
 * decimal strings; coin amounts in answers are decimal strings in the coin's unit.
 */

/** The coins the signer signs for (the contract's registry; kept here so the signer needs no API code). */
export const SIGNER_COINS = ['BTC', 'ETH', 'XRP', 'TRX'] as const;
export type SignerCoin = (typeof SIGNER_COINS)[number];

/** Decimals of each chain's base unit (satoshi 8, wei 18, drop 6, sun 6). */
export const CHAIN_DECIMALS: Record<SignerCoin, number> = { BTC: 8, ETH: 18, XRP: 6, TRX: 6 };

export const signerCoin = z.enum(SIGNER_COINS);

/** A non-negative integer as decimal digits (wei, drops, sun), at most 78 digits (2^256). */
export const uintString = z.string().regex(/^(0|[1-9]\d{0,77})$/, 'a non-negative integer as decimal digits');

/** A derivation path relative to the coin's account key: "c/i", c = 0 (external) or 1 (internal). */
export const relativePath = z
  .string()
  .regex(/^[01]\/(0|[1-9]\d{0,9})$/, 'a path "c/i" with c 0 or 1')
  .refine((p) => Number(p.split('/')[1]) < 0x80000000, 'child index must be below 2^31');

const safeUint = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** What a signature is for; only WITHDRAWAL counts against the day limit. */
export const signPurpose = z.enum(['WITHDRAWAL', 'SWEEP', 'COLD_SWEEP']);
export type SignPurpose = z.infer<typeof signPurpose>;

/** `withdrawal:123`, `withdrawal:123:r1`, `sweep:ETH:45`: letters, digits and `:_-.`, 1..128. */
export const requestId = z.string().regex(/^[A-Za-z0-9:_.-]{1,128}$/, 'letters, digits and :_-. (1..128)');

/** BTC: a PSBT whose inputs and change outputs carry bip32Derivation of the signer's seed. */
export const btcIntent = z.object({ psbt: z.string().min(1).max(2_000_000).base64() }).strict();

/** ETH: an EIP-1559 value transfer from `fromPath`. */
export const ethIntent = z
  .object({
    fromPath: relativePath,
    to: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'a 20-byte hex address'),
    valueWei: uintString,
    nonce: safeUint,
    gas: uintString,
    maxFeePerGas: uintString,
    maxPriorityFeePerGas: uintString,
    chainId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** XRP: a Payment of `amountDrops` from the account at `fromPath` (the platform account is 0/0). */
export const xrpIntent = z
  .object({
    fromPath: relativePath,
    destination: z.string().regex(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/, 'a classic address r...'),
    destinationTag: z.number().int().min(0).max(0xffffffff).optional(),
    amountDrops: uintString,
    sequence: z.number().int().min(0).max(0xffffffff),
    feeDrops: uintString,
    lastLedgerSequence: z.number().int().min(0).max(0xffffffff),
  })
  .strict();

/** TRX: a TransferContract of `amountSun`; ref block and times as java-tron's getnowblock gives them. */
export const trxIntent = z
  .object({
    fromPath: relativePath,
    to: z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'a base58 address T...'),
    amountSun: uintString,
    refBlockBytes: z.string().regex(/^[0-9a-f]{4}$/, '2 bytes hex'),
    refBlockHash: z.string().regex(/^[0-9a-f]{16}$/, '8 bytes hex'),
    expiration: safeUint,
    timestamp: safeUint,
  })
  .strict();

export type BtcIntent = z.infer<typeof btcIntent>;
export type EthIntent = z.infer<typeof ethIntent>;
export type XrpIntent = z.infer<typeof xrpIntent>;
export type TrxIntent = z.infer<typeof trxIntent>;

const signBase = { requestId, purpose: signPurpose };

/** POST /v1/sign body. */
export const signRequestSchema = z.discriminatedUnion('coin', [
  z.object({ ...signBase, coin: z.literal('BTC'), intent: btcIntent }).strict(),
  z.object({ ...signBase, coin: z.literal('ETH'), intent: ethIntent }).strict(),
  z.object({ ...signBase, coin: z.literal('XRP'), intent: xrpIntent }).strict(),
  z.object({ ...signBase, coin: z.literal('TRX'), intent: trxIntent }).strict(),
]);
export type SignRequest = z.infer<typeof signRequestSchema>;

/** A coin amount as a decimal string in the coin's unit ("0.015", "12"). */
export const coinAmount = z.string().regex(/^\d+(\.\d+)?$/, 'a decimal coin amount');

/**
 * POST /v1/sign answer: `amount` is what the transaction pays to addresses that are not the signer's own,
 * `fee` the network fee, both read from the signed transaction. `signedTx`: BTC raw hex, ETH 0x-hex, XRP
 * tx_blob hex, TRX a JSON string `{txID, raw_data_hex, signature: [hex]}`.
 */
export const signResponseSchema = z.object({
  requestId,
  coin: signerCoin,
  txid: z.string().min(1),
  signedTx: z.string().min(1),
  amount: coinAmount,
  fee: coinAmount,
});
export type SignResponse = z.infer<typeof signResponseSchema>;

/** POST /v1/sign-message body: a control signature for proof of reserves (DECISIONS §20). */
export const signMessageRequestSchema = z
  .object({ coin: signerCoin, path: relativePath, message: z.string().min(1).max(4096) })
  .strict();
export type SignMessageRequest = z.infer<typeof signMessageRequestSchema>;

/** The signature scheme of a message signature, named so a verifier knows how to check it. */
export const messageScheme = z.enum(['eip191', 'bip137', 'secp256k1-sha256']);

export const signMessageResponseSchema = z.object({
  address: z.string(),
  message: z.string(),
  signature: z.string(),
  scheme: messageScheme,
});
export type SignMessageResponse = z.infer<typeof signMessageResponseSchema>;

/** GET /v1/accounts answer: the account-level public keys (what XPUB_<COIN> holds) and the hot addresses. */
export const accountsResponseSchema = z.object({
  network: z.enum(['mainnet', 'testnet', 'regtest']),
  accounts: z.array(
    z.object({
      coin: signerCoin,
      xpub: z.string(),
      /** Child 1/0 of the account key; null for BTC (its change is spread over 1/n). */
      hotAddress: z.string().nullable(),
      /** XRP only: the platform account at 0/0. */
      xrpAccount: z.string().optional(),
    }),
  ),
});
export type AccountsResponse = z.infer<typeof accountsResponseSchema>;

/**
 * Every refusal of the signer, with its HTTP status. The API maps them to its own AppError codes
 * (apps/api/src/chains/signer-client.ts).
 */
export const SIGNER_ERROR_STATUS = {
  SIGNER_BAD_REQUEST: 400,
  SIGNER_AUTH: 401,
  SIGNER_STALE: 401,
  SIGNER_REPLAY: 401,
  SIGNER_NOT_FOUND: 404,
  SIGNER_REQUEST_REUSED: 409,
  /** The intent cannot be signed as given (an input that is not the signer's, a bad PSBT, a zero amount). */
  SIGNER_INTENT_INVALID: 422,
  SIGNER_LIMIT_TX: 422,
  SIGNER_LIMIT_DAY: 422,
  SIGNER_INTERNAL: 500,
} as const;
export type SignerErrorCode = keyof typeof SIGNER_ERROR_STATUS;

export const signerErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type SignerErrorBody = z.infer<typeof signerErrorBody>;
