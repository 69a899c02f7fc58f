import type { KycDocumentView, KycIdentityBody, KycIdentityStarted } from '@p2p/contract';
import { api } from '../../../lib/api-client';

/** GET /api/v1/kyc lives in lib (the purchase screen reads it too). */
export { kycQueryOptions, useKyc } from '../../../lib/kyc';

/**
 * POST /api/v1/kyc/identity {name, birthDate}: the identity provider sends a code to the member's phone.
 * Throws NAME_MISMATCH, UNDERAGE, KYC_ALREADY_VERIFIED, RATE_LIMITED.
 */
export const requestIdentity = (body: KycIdentityBody) =>
  api.post<KycIdentityStarted>('/api/v1/kyc/identity', body);

/** POST /api/v1/kyc/identity/verify {code}: level 1 on success; CODE_MISMATCH, CODE_EXPIRED otherwise. */
export const verifyIdentity = (code: string) =>
  api.post<{ level: number }>('/api/v1/kyc/identity/verify', { code });

/**
 * POST /api/v1/kyc/documents, multipart `file` (JPEG or PNG, 10 MB): the ID document for the operator's
 * review (level 2). Throws IMAGE_REQUIRED, IMAGE_TOO_LARGE, IMAGE_UNSUPPORTED, KYC_DOCUMENT_PENDING, KYC_REQUIRED.
 */
export function uploadKycDocument(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<KycDocumentView>('/api/v1/kyc/documents', form);
}
