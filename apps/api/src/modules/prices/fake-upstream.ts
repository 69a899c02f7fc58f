import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake upstream answers on its next requests. */
export type FakeMode = 'ok' | 'error' | 'garbage' | 'hang' | 'coingeckoDown';

export interface FakeUpstream {
  url: string;
  /** Requests received, by path (without the query). */
  hits: string[];
  mode: FakeMode;
  close(): Promise<void>;
}

export const COINGECKO_BODY = {
  bitcoin: { krw: 140_123_456.78, krw_24h_change: -1.2345 },
  ethereum: { krw: 5_012_345.5, krw_24h_change: 2.5 },
  ripple: { krw: 3012.4, krw_24h_change: 0.001 },
  tron: { krw: 401.6, krw_24h_change: -0.004 },
};

export const UPBIT_BODY = [
  { market: 'KRW-BTC', trade_price: 141_000_000.0, signed_change_rate: -0.0123 },
  { market: 'KRW-ETH', trade_price: 5_100_000.0, signed_change_rate: 0.0456 },
  { market: 'KRW-XRP', trade_price: 3_050.0, signed_change_rate: 0 },
  { market: 'KRW-TRX', trade_price: 399.5, signed_change_rate: 0.1 },
];

/**
 * A local stand-in for CoinGecko (`/simple/price`) and Upbit (`/ticker`) on 127.0.0.1, so price tests
 * never touch the internet. Test-only; `mode` switches between good answers, 500s, junk and silence
 * (`coingeckoDown`: only CoinGecko fails, so the Upbit fallback answers).
 */
export async function startFakeUpstream(): Promise<FakeUpstream> {
  const state: { mode: FakeMode } = { mode: 'ok' };
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    hits.push(path);
    if (state.mode === 'hang') return; // never answers: the client's timeout must fire
    if (state.mode === 'error' || (state.mode === 'coingeckoDown' && path.endsWith('/simple/price'))) {
      res.writeHead(500).end('upstream broken');
      return;
    }
    const body =
      state.mode === 'garbage'
        ? { nothing: 'here' }
        : path.endsWith('/simple/price')
          ? COINGECKO_BODY
          : path.endsWith('/ticker')
            ? UPBIT_BODY
            : null;
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMode) {
      state.mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
