import type { CountryCode } from './enums.ts';

/**
 * Converts a locally typed phone number to E.164 (SPEC §5): digits only; for Korea (82) and Japan (81)
 * a leading 0 of the national number is dropped (010..., 090/080/070...). Returns null when the result
 * is not a plausible number (E.164 allows at most 15 digits).
 */
export function toE164(countryCode: CountryCode, local: string): string | null {
  let digits = local.replace(/[\s\-().]/g, '');
  if (!/^\+?\d+$/.test(digits)) return null;
  if (digits.startsWith('+')) {
    if (!digits.startsWith(`+${countryCode}`)) return null;
    digits = digits.slice(1 + countryCode.length);
  }
  if ((countryCode === '82' || countryCode === '81') && digits.startsWith('0')) digits = digits.slice(1);
  const total = countryCode.length + digits.length;
  if (digits.length < 7 || total > 15) return null;
  if (countryCode === '1' && digits.length !== 10) return null;
  return `+${countryCode}${digits}`;
}

/** True for a syntactically valid E.164 number of one of the supported countries. */
export function isE164(phone: string): boolean {
  return /^\+(82|81|1)\d{7,13}$/.test(phone) && phone.length <= 16;
}

/** Splits an E.164 number into its country code and national number (with the leading 0 restored for 82/81). */
export function fromE164(phone: string): { countryCode: CountryCode; local: string } | null {
  for (const cc of ['82', '81', '1'] as const) {
    if (phone.startsWith(`+${cc}`)) {
      const rest = phone.slice(1 + cc.length);
      return { countryCode: cc, local: cc === '1' ? rest : `0${rest}` };
    }
  }
  return null;
}

/** Formats an E.164 number for display, e.g. +821012345678 -> 010-1234-5678 (SPEC §2 /account). */
export function formatPhone(phone: string): string {
  const p = fromE164(phone);
  if (!p) return phone;
  const d = p.local;
  if (p.countryCode === '1' && d.length === 10) return `+1 ${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
  if (d.length === 11) return `${d.slice(0, 3)}-${d.slice(3, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)}`;
  return d;
}

/** Masks a phone for find-phone (DECISIONS §6): keeps the country code and the last 4 digits. */
export function maskPhone(phone: string): string {
  const p = fromE164(phone);
  if (!p) return phone.replace(/\d(?=\d{4})/g, '*');
  return `+${p.countryCode} ${p.local.slice(0, -4).replace(/\d/g, '*')}${p.local.slice(-4)}`;
}
