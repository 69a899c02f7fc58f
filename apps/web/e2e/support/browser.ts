import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { WEB_DIR } from './build.ts';

export const SCREENSHOT_DIR = join(WEB_DIR, 'test-output/screenshots');
export const VIEWPORT = { width: 390, height: 844 };

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

async function executablePath(): Promise<string> {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  // Fallback only when the system Chromium is missing; the package is optional.
  const mod = (await import(/* @vite-ignore */ '@sparticuz/chromium' as string)) as {
    default: { executablePath: () => Promise<string> };
  };
  return mod.default.executablePath();
}

/** Headless Chromium with the flags this machine needs (no background networking). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await executablePath(), headless: true, args: CHROMIUM_FLAGS });
}

export interface MobilePage {
  context: BrowserContext;
  page: Page;
  /** Messages of the page's uncaught errors, in order. */
  errors: string[];
}

/**
 * How a test context treats the app's service worker. The app registers it in every browser, automated ones
 * included; the tests of screens block it in their context (they route, count and time requests, which a
 * worker's precache and fetch handler would compete with or hide), a test of the worker passes 'allow'.
 */
export type ServiceWorkers = 'allow' | 'block';

/** A fresh context (empty storage, en-US) at `viewport`, with page errors collected into `errors`. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  o: { serviceWorkers?: ServiceWorkers; locale?: string } = {},
): Promise<MobilePage> {
  const context = await browser.newContext({
    viewport,
    baseURL,
    locale: o.locale ?? 'en-US',
    serviceWorkers: o.serviceWorkers ?? 'block',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** A fresh context (empty storage) at 390x844, with page errors collected into `errors`. */
export function newMobilePage(
  browser: Browser,
  baseURL: string,
  o: { serviceWorkers?: ServiceWorkers; locale?: string } = {},
): Promise<MobilePage> {
  return newPage(browser, baseURL, VIEWPORT, o);
}

/**
 * Waits for a toast containing `text` (case-insensitive, in either toast container: the member app's or the
 * console's), then dismisses it: a bottom-centre toast pauses while hovered and can sit over the next button,
 * and a click closes it.
 */
export async function expectToast(page: Page, text: string): Promise<void> {
  const toast = page.locator('.Toastify__toast').filter({ hasText: text }).first();
  await toast.waitFor();
  await toast.click().catch(() => undefined);
  await toast.waitFor({ state: 'detached' }).catch(() => undefined);
}

/**
 * Saves a full-page screenshot as test-output/screenshots/<lang>-<name>.png (not committed), scrolled to
 * the top so sticky headers stay in place. `idle: false` skips waiting for the network (loaders).
 */
export async function screenshot(
  page: Page,
  name: string,
  lang: string,
  o: { idle?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (o.idle !== false) await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: join(SCREENSHOT_DIR, `${lang}-${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Stores the interface language before the app loads (localStorage `language`). */
export async function setStoredLanguage(context: BrowserContext, lang: 'en' | 'kr' | 'jp'): Promise<void> {
  await context.addInitScript((l) => window.localStorage.setItem('language', l), lang);
}

/**
 * Opens / and chooses Korean in localStorage `language` (unlike setStoredLanguage's init script, a later
 * switch to another language in the same test stays).
 */
export async function startInKorean(page: Page): Promise<void> {
  await page.goto('/');
  await page.evaluate(() => window.localStorage.setItem('language', 'kr'));
}
