/**
 * @p2p/signer-protocol: the calls between the API and the signer (DECISIONS §18), their zod schemas and types,
 * the HMAC request authentication and exact unit conversion. No key material, no API code.
 */
export * from './hmac.ts';
export * from './schemas.ts';
export * from './units.ts';

/** The signer's paths. */
export const SIGNER_PATHS = {
  health: '/healthz',
  accounts: '/v1/accounts',
  sign: '/v1/sign',
  signMessage: '/v1/sign-message',
} as const;

/** The signer's default port (SIGNER_PORT). */
export const DEFAULT_SIGNER_PORT = 8081;
