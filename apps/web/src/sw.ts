// The service worker (DECISIONS §16), built by vite-plugin-pwa in injectManifest mode: precaches the shell,
// answers a navigation that fails for lack of network with /offline.html, caches the web font as it is used,
// and never stores an API answer; the `push` handler at the end shows Web Push notifications.
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

/** Paths the server answers with data (app.ts, web.ts): the service worker never caches them. */
export const API_PATHS = [
  '/api',
  '/ops/api',
  '/my/',
  '/sms',
  '/buy-orders',
  '/transfer',
  '/dev',
  '/healthz',
  '/readyz',
  '/metrics',
  '/docs',
  '/events',
];

function isApi(pathname: string): boolean {
  return pathname === '/my' || API_PATHS.some((p) => pathname === p || pathname.startsWith(p));
}

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
// The first install controls the open page at once; a later version waits for the prompt (SKIP_WAITING).
clientsClaim();

// Pages always come from the network, so a member never sees an old screen or someone's cached data;
// without a network the offline page answers.
registerRoute(({ request, url }) => request.mode === 'navigate' && !isApi(url.pathname), new NetworkOnly());

// Font subsets are hashed files: once fetched they never change.
registerRoute(
  ({ request, url }) => request.destination === 'font' && url.origin === self.location.origin,
  new CacheFirst({ cacheName: 'fonts' }),
);

setCatchHandler(async ({ request }) => {
  if (request.mode === 'navigate') return (await matchPrecache('/offline.html')) ?? Response.error();
  return Response.error();
});

// The page asks before a new version takes over ("새 버전" prompt, PwaUpdatePrompt.tsx).
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Web Push (DECISIONS §12): the server sends {id, kind, orderId, listingId}, encrypted for this browser;
// the notification is worded here (the page's texts are not loaded in the worker) and opens /notifications.
const PUSH_TEXT: Record<'kr' | 'en' | 'jp', { title: string; kinds: Record<string, string> }> = {
  kr: {
    title: 'P2P 알림',
    kinds: {
      ORDER_REQUESTED: '새 구매 요청이 들어왔어요.',
      ORDER_PAID: '구매자가 입금했다고 알렸어요.',
      ORDER_COMPLETED: '거래가 완료되었어요.',
      ORDER_EXPIRED: '주문이 만료되었어요.',
      MESSAGE: '새 메시지가 있어요.',
      DEPOSIT_CREDITED: '입금이 확인되어 지갑에 들어왔어요.',
      WITHDRAWAL_COMPLETED: '출금이 완료되었어요.',
      WITHDRAWAL_FAILED: '출금이 실패해 잔액으로 돌려드렸어요.',
    },
  },
  en: {
    title: 'P2P',
    kinds: {
      ORDER_REQUESTED: 'A buyer placed an order.',
      ORDER_PAID: 'The buyer says the payment was sent.',
      ORDER_COMPLETED: 'Your trade is complete.',
      ORDER_EXPIRED: 'An order expired.',
      MESSAGE: 'New message.',
      DEPOSIT_CREDITED: 'Your deposit arrived in your wallet.',
      WITHDRAWAL_COMPLETED: 'Your withdrawal completed.',
      WITHDRAWAL_FAILED: 'Your withdrawal failed and was returned to your balance.',
    },
  },
  jp: {
    title: 'P2P のお知らせ',
    kinds: {
      ORDER_REQUESTED: '購入依頼が届きました。',
      ORDER_PAID: '購入者が入金済みと伝えています。',
      ORDER_COMPLETED: '取引が完了しました。',
      ORDER_EXPIRED: '注文が期限切れになりました。',
      MESSAGE: '新しいメッセージがあります。',
      DEPOSIT_CREDITED: '入金がウォレットに反映されました。',
      WITHDRAWAL_COMPLETED: '出金が完了しました。',
      WITHDRAWAL_FAILED: '出金に失敗したため、残高に戻しました。',
    },
  },
};

self.addEventListener('push', (event) => {
  let data: { id?: number; kind?: string; orderId?: number | null } = {};
  try {
    data = (event.data?.json() as typeof data | undefined) ?? {};
  } catch {
    data = {};
  }
  const lang = self.navigator.language.startsWith('ko')
    ? 'kr'
    : self.navigator.language.startsWith('ja')
      ? 'jp'
      : 'en';
  const text = PUSH_TEXT[lang];
  const body = (data.kind && text.kinds[data.kind]) || text.kinds.MESSAGE || '';
  event.waitUntil(
    self.registration.showNotification(text.title, {
      body: data.orderId ? `#${data.orderId} ${body}` : body,
      tag: data.id ? `n-${data.id}` : undefined,
      icon: '/icons/icon-192.png',
      data: { url: '/notifications' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? '/notifications';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows[0];
      if (open) {
        await open.focus();
        await open.navigate(url);
      } else {
        await self.clients.openWindow(url);
      }
    })(),
  );
});
