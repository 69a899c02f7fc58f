import type { Coin } from '@p2p/contract/enums.ts';
import { useTranslation } from 'react-i18next';
import { CoinIcon } from './CoinIcon';
import { CountryFlag } from './CountryFlag';
import w from './widgets.module.css';

interface Props {
  coin: Coin;
  /** The seller by nickname and flag, on the right; left out where the card lists the seller itself. */
  seller?: { nickname: string; country: string };
  /** The home carousel's smaller card: the coin name in the small text size, no space under the head. */
  compact?: boolean;
}

/**
 * The head of a listing card (SPEC §1 popular sales, §2 /transaction and /purchase): the coin's icon, name
 * and symbol, and the seller's flag and nickname when given.
 */
export function ListingHead({ coin, seller, compact = false }: Props) {
  const { t } = useTranslation();
  return (
    <div className={`${w.listingHead} ${compact ? w.listingHeadCompact : ''}`}>
      <div className={w.listingCoin}>
        <CoinIcon coin={coin} size={32} />
        <div>
          <div className={w.listingCoinName}>{t(`common:coins.${coin}`)}</div>
          <div className={w.listingCoinSymbol}>{coin}</div>
        </div>
      </div>
      {seller && (
        <div className={w.listingSeller}>
          <CountryFlag countryCode={seller.country} />
          <span data-testid="listing-seller">{seller.nickname}</span>
        </div>
      )}
    </div>
  );
}
