import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/index.ts';

/**
 * Reads the one multipart file part named `file` into memory, at most `maxBytes` (chat proof images, DECISIONS
 * §12; ID documents, §19). No other part or field is accepted.
 * Throws 400 IMAGE_REQUIRED (not multipart, another part name, empty, unreadable), 413 IMAGE_TOO_LARGE.
 */
export async function readFilePart(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('IMAGE_REQUIRED');
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 0, parts: 2 } });
  } catch {
    throw new AppError('IMAGE_REQUIRED');
  }
  if (part?.fieldname !== 'file') throw new AppError('IMAGE_REQUIRED');
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
    throw new AppError('IMAGE_REQUIRED');
  }
  if (bytes.length === 0) throw new AppError('IMAGE_REQUIRED');
  return bytes;
}
