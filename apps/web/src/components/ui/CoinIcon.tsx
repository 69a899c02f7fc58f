import type { Coin } from '@p2p/contract/enums.ts';
import btc from 'cryptocurrency-icons/svg/color/btc.svg';
import eth from 'cryptocurrency-icons/svg/color/eth.svg';
import trx from 'cryptocurrency-icons/svg/color/trx.svg';
import xrp from 'cryptocurrency-icons/svg/color/xrp.svg';

/**
 * The colour icon of each coin of the registry (`COIN_SPECS[coin].icon` names the file). One import per coin:
 * a glob over the package would ship all of its icons; apps/web/src/coin-registry.test.ts checks the names.
 */
export const COIN_ICONS: Record<Coin, string> = { BTC: btc, ETH: eth, XRP: xrp, TRX: trx };

/** The coin's colour icon (cryptocurrency-icons), with fixed size so nothing jumps while it loads. */
export function CoinIcon({ coin, size = 32 }: { coin: Coin; size?: number }) {
  return <img src={COIN_ICONS[coin]} width={size} height={size} alt="" aria-hidden="true" />;
}
