import { format } from 'date-fns';
import i18n from '../i18n';

/*
 * The one date-and-time format of the member app (one formatter on Intl, in the interface language and
 * the viewer's time zone): "11월 27일 (목) 10:30" in Korean, "Thu, Nov 27, 10:30" in English,
 * "11月27日(木) 10:30" in Japanese. A deadline adds 까지 / "by" in its sentence, not here.
 */

const LOCALE: Record<string, string> = { kr: 'ko-KR', en: 'en-US', jp: 'ja-JP' };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(lang: string, timeZone?: string): Intl.DateTimeFormat {
  const key = `${lang}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALE[lang] ?? 'en-US', {
      month: lang === 'en' ? 'short' : 'long',
      day: 'numeric',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      ...(timeZone ? { timeZone } : {}),
    });
    formatters.set(key, f);
  }
  return f;
}

/**
 * An ISO instant as "11월 27일 (목) 10:30" (the interface language, or `lang`; the viewer's time zone unless
 * `timeZone` is given); '-' for none or an invalid time.
 */
export function formatWhen(
  iso: string | null | undefined,
  o: { lang?: string; timeZone?: string } = {},
): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  const lang = o.lang ?? i18n.language ?? 'en';
  return formatterFor(lang, o.timeZone).format(d);
}

/** A deadline as the member reads it: the shared format (formatWhen), so "…10:30까지" names its day too. */
export function formatClock(iso: string | null | undefined): string {
  return formatWhen(iso);
}

/** An ISO time in the shared format (formatWhen); '-' for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return formatWhen(iso);
}

/**
 * ISO 8601 -> "2026-11-21 13:05:09" in the browser's time zone: the operator console's tables, where a
 * sortable, second-precise stamp is the point (not a member-facing date); '' for null.
 */
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
