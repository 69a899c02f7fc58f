import type { KycDocumentView } from '@p2p/contract';
import sharp, { type Sharp } from 'sharp';
import type { Db } from '../../db/client.ts';
import { inTx } from '../../db/tx.ts';
import { AppError, pgConstraint } from '../../errors/index.ts';
import { audit } from '../audit/index.ts';
import { type Limit, memberKycRow, raiseKycLevel } from '../identity/index.ts';
import { type DocKey, openDocument, sealDocument } from './doc-key.ts';
import { decideDocument, documentExists, insertDocument, newestDocument, sealedDocument } from './repo.ts';

/** A decoded and re-encoded ID document: no metadata, upright, at most 4096 px a side. */
export interface CleanDocument {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

const MAX_SIDE = 4096;

/**
 * Decodes the upload with sharp, by its content (never the name or the declared type), and re-encodes it in
 * its own format, turned upright by its EXIF orientation, with every metadata block (EXIF, GPS, ICC, XMP)
 * dropped. JPEG and PNG only: anything else, or bytes that do not decode, 422 IMAGE_UNSUPPORTED.
 */
export async function reencodeDocument(input: Buffer): Promise<CleanDocument> {
  try {
    const img = sharp(input, { failOn: 'error', limitInputPixels: 50_000_000 });
    const meta = await img.metadata();
    if (meta.format !== 'jpeg' && meta.format !== 'png') throw new AppError('IMAGE_UNSUPPORTED');
    const base = img
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    const out: Sharp = meta.format === 'jpeg' ? base.jpeg({ quality: 90 }) : base.png();
    const { data, info } = await out.toBuffer({ resolveWithObject: true });
    const contentType = meta.format === 'jpeg' ? 'image/jpeg' : 'image/png';
    return { bytes: data, contentType, width: info.width, height: info.height };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMAGE_UNSUPPORTED');
  }
}

const view = (r: {
  id: number;
  status: KycDocumentView['status'];
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}): KycDocumentView => ({
  id: r.id,
  status: r.status,
  reason: r.reason,
  createdAt: r.created_at.toISOString(),
  reviewedAt: r.reviewed_at ? r.reviewed_at.toISOString() : null,
});

/** The member's newest document as the verification center shows it, or null. */
export async function myDocument(db: Db, memberId: number): Promise<KycDocumentView | null> {
  const r = await newestDocument(db, memberId);
  return r ? view(r) : null;
}

/**
 * Refuses an upload the member may not make, before the file is read: 422 KYC_REQUIRED {level: 1} below
 * level 1 (the document is checked against the verified name), 409 KYC_ALREADY_VERIFIED at level 2.
 */
export async function assertMayUpload(db: Db, memberId: number, perMember: Limit): Promise<void> {
  await perMember.consume(String(memberId));
  const m = await memberKycRow(db, memberId);
  if (!m) throw new AppError('UNAUTHORIZED');
  if (m.kyc_level < 1) throw new AppError('KYC_REQUIRED', { level: 1 });
  if (m.kyc_level >= 2) throw new AppError('KYC_ALREADY_VERIFIED');
}

/**
 * POST /api/v1/kyc/documents (DECISIONS §19): re-encodes the upload (422 IMAGE_UNSUPPORTED), seals it with
 * AES-256-GCM under the document key and stores it PENDING; 409 KYC_DOCUMENT_PENDING while another waits.
 */
export async function uploadDocument(
  db: Db,
  key: DocKey,
  memberId: number,
  upload: Buffer,
): Promise<KycDocumentView> {
  const clean = await reencodeDocument(upload);
  try {
    const row = await insertDocument(db, {
      memberId,
      contentType: clean.contentType,
      width: clean.width,
      height: clean.height,
      byteSize: clean.bytes.length,
      keyId: key.id,
      sealed: sealDocument(key, memberId, clean.bytes),
    });
    return view(row);
  } catch (err) {
    if (pgConstraint(err) === 'kyc_documents_one_pending') throw new AppError('KYC_DOCUMENT_PENDING');
    throw err;
  }
}

/**
 * The operator's decision on a PENDING document, audited in the same transaction: approve raises the member
 * to level 2; reject keeps the level and records the reason. Of parallel decisions one wins; the others get
 * 409 INVALID_STATE; 404 NOT_FOUND for an unknown id.
 */
export async function reviewDocument(
  db: Db,
  d: { id: number; operatorId: number; approve: boolean; reason: string | null },
): Promise<{ id: number; status: 'APPROVED' | 'REJECTED' }> {
  const status = d.approve ? 'APPROVED' : 'REJECTED';
  const decided = await inTx(db, async (tx) => {
    const row = await decideDocument(tx, { id: d.id, status, reason: d.reason, operatorId: d.operatorId });
    if (!row) return false;
    if (d.approve) await raiseKycLevel(tx, row.member_id, 2);
    await audit(tx, {
      operatorId: d.operatorId,
      action: d.approve ? 'kyc.approve' : 'kyc.reject',
      targetType: 'kyc_document',
      targetId: d.id,
      reason: d.reason,
      data: { memberId: row.member_id },
    });
    return true;
  });
  if (!decided) throw new AppError((await documentExists(db, d.id)) ? 'INVALID_STATE' : 'NOT_FOUND');
  return { id: d.id, status };
}

/**
 * The decrypted image of a document for an operator (404 NOT_FOUND), its viewing audited: identity documents
 * are the most sensitive data the service keeps.
 */
export async function documentImage(db: Db, key: DocKey, id: number, operatorId: number) {
  const r = await sealedDocument(db, id);
  if (!r) throw new AppError('NOT_FOUND');
  if (r.key_id !== key.id)
    throw new Error(`kyc document ${id} was sealed under key ${r.key_id}, not ${key.id}`);
  const bytes = openDocument(key, r.member_id, r.sealed);
  await inTx(db, (tx) =>
    audit(tx, {
      operatorId,
      action: 'kyc.view',
      targetType: 'kyc_document',
      targetId: id,
      data: { memberId: r.member_id },
    }),
  );
  return { bytes, contentType: r.content_type };
}
