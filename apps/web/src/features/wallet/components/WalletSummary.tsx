import type { Wallet } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { formatQty, formatWon } from '../../../lib/format';
import w from '../wallet.module.css';
import { useWonValues } from '../won-value';

/**
 * A wallet's coin, available balance (up to 8 decimals), escrow held in listings (DECISIONS §4) and the won
 * value of the holding at the current rate.
 */
export function WalletSummary({ wallet }: { wallet: Wallet }) {
  const { t } = useTranslation('wallet');
  const won = useWonValues([wallet]).byWallet.get(wallet.id) ?? null;
  return (
    <Card className={w.summary} data-testid="wallet-summary">
      <div className={w.summaryHead}>
        <CoinIcon coin={wallet.coinCode} size={32} />
        <div>
          <div className={w.coinName}>{t(`common:coins.${wallet.coinCode}`)}</div>
          <div className={w.coinSymbol}>{wallet.coinCode}</div>
        </div>
      </div>
      <div>
        <div className={w.muted}>{t('balance')}</div>
        <div className={w.balance} data-testid="wallet-balance">
          {formatQty(wallet.balance, 8)} {wallet.coinCode}
        </div>
        <div className={w.muted} data-testid="wallet-escrow">
          {t('escrow')} {formatQty(wallet.escrowBalance, 8)} {wallet.coinCode}
        </div>
        <div className={w.wonValue} data-testid="wallet-won">
          {won === null ? '\u00a0' : t('wonValue', { won: formatWon(won) })}
        </div>
      </div>
    </Card>
  );
}
