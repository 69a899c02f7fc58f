import { CHAT_IMAGE_MAX_BYTES, CHAT_IMAGE_TYPES } from '@p2p/contract';

/** Why a picked file cannot be sent, checked before the upload: its type or its size (in MB, one decimal). */
export type ImageProblem = { code: 'type'; sizeMb: string } | { code: 'size'; sizeMb: string };

/**
 * Checks a picked file against DECISIONS §12 before any byte is sent: JPEG, PNG or WebP by its MIME type,
 * at most CHAT_IMAGE_MAX_BYTES (5 MB). Returns null when it may go; the server decodes it anyway.
 */
export function imageProblem(file: { type: string; size: number }): ImageProblem | null {
  const sizeMb = (file.size / (1024 * 1024)).toFixed(1);
  if (!(CHAT_IMAGE_TYPES as readonly string[]).includes(file.type)) return { code: 'type', sizeMb };
  if (file.size > CHAT_IMAGE_MAX_BYTES) return { code: 'size', sizeMb };
  return null;
}
