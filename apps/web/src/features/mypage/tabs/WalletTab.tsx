import { COINS } from '@p2p/contract/enums.ts';
import { shortenAddress } from '@p2p/contract/money.ts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { Card, cardClassName } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { LoadError } from '../../../components/ui/LoadError';
import { Skeleton } from '../../../components/ui/Skeleton';
import { paths } from '../../../config/paths';
import { formatBalance, formatWon } from '../../../lib/format';
import { useWallets, useWonValues } from '../../wallet';
import m from '../mypage.module.css';

/**
 * The /myinfo wallet tab (SPEC §2): each wallet with its available balance and escrow, detail (/wallet),
 * send (/withdraw) and receive (/deposit); create-wallet while some coin has no wallet.
 */
export function WalletTab() {
  const { t } = useTranslation('mypage');
  const navigate = useNavigate();
  const wallets = useWallets();
  const list = wallets.data ?? [];
  const canCreate = wallets.isSuccess && list.length < COINS.length;
  const go = (path: string, walletId: number) => navigate(path, { state: { walletId } });
  const won = useWonValues(wallets.data);
  return (
    <div className={m.stack} data-testid="wallet-tab">
      {wallets.isPending && (
        <div role="status" aria-busy="true" className={m.stack} data-testid="wallets-skeleton">
          <span className="visually-hidden">{t('common:loading')}</span>
          <Skeleton height={56} />
          <Skeleton height={220} />
        </div>
      )}
      {wallets.isError && (
        <LoadError
          message={t('wallets.error')}
          failedAt={wallets.errorUpdatedAt}
          retrying={wallets.isFetching}
          onRetry={() => wallets.refetch()}
          testId="wallets-error"
        />
      )}
      {list.length > 0 && (
        <Card className={m.kv} data-testid="wallets-total">
          <span className={m.label}>{t('wallet:totalValue')}</span>
          <strong className={m.value} data-testid="wallets-total-won">
            {won.total === null ? '\u00a0' : t('wallet:wonValue', { won: formatWon(won.total) })}
          </strong>
        </Card>
      )}
      {wallets.isSuccess && list.length === 0 && (
        <Card className={m.empty} data-testid="wallets-empty">
          {t('wallets.empty')}
        </Card>
      )}
      {list.map((w) => (
        <article
          key={w.id}
          className={`${cardClassName} ${m.item}`}
          data-testid="wallet-item"
          data-coin={w.coinCode}
        >
          <div className={m.head}>
            <div className={m.coin}>
              <CoinIcon coin={w.coinCode} size={32} />
              <div>
                <div className={m.coinName}>{t(`common:coins.${w.coinCode}`)}</div>
                <div className={m.mono}>{shortenAddress(w.address)}</div>
              </div>
            </div>
          </div>
          <div className={m.kv}>
            <span className={m.label}>{t('wallets.balance')}</span>
            <span className={m.value} data-testid="wallet-item-balance">
              {formatBalance(w.balance)} {w.coinCode}
            </span>
          </div>
          <div className={m.kv}>
            <span className={m.label}>{t('wallets.escrow')}</span>
            <span className={m.value} data-testid="wallet-item-escrow">
              {formatBalance(w.escrowBalance)} {w.coinCode}
            </span>
          </div>
          <div className={m.kv}>
            <span className={m.label}>{t('wallet:valueNote')}</span>
            <span className={m.value} data-testid="wallet-item-won">
              {won.byWallet.get(w.id) == null
                ? '\u00a0'
                : t('wallet:wonValue', { won: formatWon(won.byWallet.get(w.id) ?? 0) })}
            </span>
          </div>
          <div className={m.buttons3}>
            <Button
              variant="outline"
              size="small"
              onClick={() => go(paths.wallet.path, w.id)}
              data-testid="wallet-detail"
            >
              {t('wallets.detail')}
            </Button>
            <Button
              variant="secondary"
              size="small"
              onClick={() => go(paths.withdraw.path, w.id)}
              data-testid="wallet-send"
            >
              {t('wallets.send')}
            </Button>
            <Button
              variant="secondary"
              size="small"
              onClick={() => go(paths.deposit.path, w.id)}
              data-testid="wallet-receive"
            >
              {t('wallets.receive')}
            </Button>
          </div>
        </article>
      ))}
      {canCreate && (
        <Button
          block
          variant="outline"
          onClick={() => navigate(paths.createWallet.path)}
          data-testid="to-create-wallet"
        >
          {t('wallets.create')}
        </Button>
      )}
    </div>
  );
}
