import { maskPhone } from '@p2p/contract';

const strip = (s: string) => s.replace(/[\s\-().]/g, '');

/**
 * True when `given` names the member's stored phone: the full E.164 number, or the masked form that
 * find-phone showed (password reset, where the client only ever saw the masked phone).
 */
export function sameStoredPhone(given: string, storedE164: string): boolean {
  const g = strip(given);
  return g === strip(storedE164) || g === strip(maskPhone(storedE164));
}
