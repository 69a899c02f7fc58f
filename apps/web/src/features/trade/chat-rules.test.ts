import { CHAT_IMAGE_MAX_BYTES } from '@p2p/contract';
import { describe, expect, it } from 'vitest';
import { imageProblem } from './chat-rules';

describe('imageProblem (DECISIONS §12: JPEG, PNG, WebP up to 5 MB, checked before the upload)', () => {
  it('lets the three image types through up to exactly 5 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp']) {
      expect(imageProblem({ type, size: CHAT_IMAGE_MAX_BYTES })).toBeNull();
    }
  });

  it('refuses other types and says so before the size', () => {
    expect(imageProblem({ type: 'image/gif', size: 10 })?.code).toBe('type');
    expect(imageProblem({ type: 'application/pdf', size: CHAT_IMAGE_MAX_BYTES * 2 })?.code).toBe('type');
    expect(imageProblem({ type: '', size: 10 })?.code).toBe('type');
  });

  it('refuses one byte over 5 MB and names the size', () => {
    expect(imageProblem({ type: 'image/png', size: CHAT_IMAGE_MAX_BYTES + 1 })).toEqual({
      code: 'size',
      sizeMb: '5.0',
    });
    expect(imageProblem({ type: 'image/jpeg', size: 7.5 * 1024 * 1024 })?.sizeMb).toBe('7.5');
  });
});
