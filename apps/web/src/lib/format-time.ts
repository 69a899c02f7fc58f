import { format, isSameDay } from 'date-fns';
import i18n from '../i18n';

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

/** An ISO time as yyyy-MM-dd HH:mm in the viewer's time zone; '-' for none. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '-' : format(d, 'yyyy-MM-dd HH:mm');
}

/** ISO 8601 -> "2026-11-21 13:05:09" in the browser's time zone (the console's tables); '' for null. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : format(d, 'yyyy-MM-dd HH:mm:ss');
}

/**
 * A duration for people ("2시간 5분", "3 min"): hours and minutes, at least one minute, from `seconds` (the
 * time a dispute took), with the texts common:duration.*.
 */
export function durationText(seconds: number): string {
  const t = i18n.t.bind(i18n);
  const minutes = Math.max(1, Math.round(seconds / 60));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return t('common:duration.m', { m });
  return m === 0 ? t('common:duration.h', { h }) : t('common:duration.hm', { h, m });
}
