import { format, isSameDay } from 'date-fns';

/**
 * A deadline as the member reads it on a phone: "15:42" today, "11/23 15:42" on another day (the viewer's
 * time zone); '-' for none.
 */
export function formatClock(iso: string | null | undefined, nowMs = Date.now()): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  return isSameDay(d, nowMs) ? format(d, 'HH:mm') : format(d, 'M/d HH:mm');
}
