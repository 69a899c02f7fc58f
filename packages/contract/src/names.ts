import { LIVE_ORDER_STATUSES, type OrderStatus } from './enums.ts';
import { maskPhone } from './phone.ts';

/**
 * A real name masked for public lists (DECISIONS §10): first and last character kept, the rest '*'.
 * Two characters keep only the first; one character becomes '*'. Counts code points, not UTF-16 units.
 * Masking a masked name gives it back unchanged, so a screen may apply it to what the API already masked.
 */
export function maskName(name: string): string {
  const chars = Array.from(name.trim());
  if (chars.length <= 1) return '*';
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/**
 * The one rule for the seller's account holder on an order (DECISIONS §10): in full while the order is live
 * (REQUESTED, PAID, DISPUTED: the buyer must match the account), masked once it has ended. The API answers
 * by it and every order screen shows it through this function, so no two screens differ.
 */
export function orderHolderName(status: OrderStatus, name: string): string {
  return (LIVE_ORDER_STATUSES as readonly OrderStatus[]).includes(status) ? name : maskName(name);
}

/**
 * The same rule for the seller's phone number on an order (DECISIONS §10): in full to the buyer while the
 * order is live, masked (country code and last 4 digits) once it has ended.
 */
export function orderHolderPhone(status: OrderStatus, phone: string): string {
  return (LIVE_ORDER_STATUSES as readonly OrderStatus[]).includes(status) ? phone : maskPhone(phone);
}
