import { fromUnits, toUnits, type Wallet } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { formatBalance, formatWon } from '../../../lib/format';
import { formatWhen } from '../../../lib/format-time';
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
          {formatBalance(wallet.balance)} {wallet.coinCode}
        </div>
        <div className={w.muted} data-testid="wallet-escrow">
          {t('escrow')} {formatBalance(wallet.escrowBalance)} {wallet.coinCode}
        </div>
        <HeldLine wallet={wallet} />
        <div className={w.wonValue} data-testid="wallet-won">
          {won === null ? '\u00a0' : t('wonValue', { won: formatWon(won) })}
        </div>
      </div>
    </Card>
  );
}

/**
 * DECISIONS §19: what an external withdrawal may take now, and when the coins on hold (bought or received
 * from a member) are free: "출금 가능 0.5 BTC · 0.2 BTC는 11월 27일 (금) 10:30부터".
 */
function HeldLine({ wallet }: { wallet: Wallet }) {
  const { t } = useTranslation('wallet');
  if (!wallet.heldUntil) return null;
  const held = fromUnits(toUnits(wallet.balance) - toUnits(wallet.withdrawableBalance));
  const when = formatWhen(wallet.heldUntil);
  return (
    <div className={w.muted} data-testid="wallet-held">
      {t('held', {
        free: formatBalance(wallet.withdrawableBalance),
        held: formatBalance(held),
        coin: wallet.coinCode,
        when,
      })}
    </div>
  );
}
