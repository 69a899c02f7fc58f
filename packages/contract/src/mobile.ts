import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/**
 * True when the E.164 number is a valid mobile number of its country by libphonenumber's full metadata
 * (type MOBILE; for +1, whose numbering plan does not tell mobile from fixed lines, FIXED_LINE_OR_MOBILE):
 * an SMS code cannot reach a landline such as 02-123-4567. Its own module, so only the screens and calls that
 * check a phone carry the metadata.
 */
export function isMobileE164(phone: string): boolean {
  const parsed = parsePhoneNumberFromString(phone);
  if (!parsed?.isValid()) return false;
  const type = parsed.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}
