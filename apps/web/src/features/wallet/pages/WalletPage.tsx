import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { InfiniteList } from '../../../components/ui/InfiniteList';
import { paths } from '../../../config/paths';
import { useTransfers } from '../api/get-transfers';
import { useWallets } from '../api/get-wallets';
import { TransferRow } from '../components/TransferRow';
import { WalletSummary } from '../components/WalletSummary';
import w from '../wallet.module.css';
import { pickWallet, walletIdOf } from '../wallet-state';

/** /wallet (SPEC §2): one wallet's balance and transfer history (wallet id passed in navigation state). */
export default function WalletPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const id = walletIdOf(useLocation().state);
  const wallets = useWallets();
  const wallet = pickWallet(wallets.data, id);
  const transfers = useTransfers(wallet?.id);
  if (id === null || (wallets.isSuccess && !wallet)) return <Navigate to={paths.myInfo.path} replace />;
  return (
    <Page title={t('detail.title')}>
      {wallet && <WalletSummary wallet={wallet} />}
      {wallet && (
        <div className={w.buttons}>
          <Button
            variant="secondary"
            onClick={() => navigate(paths.withdraw.path, { state: { walletId: wallet.id } })}
            data-testid="wallet-send"
          >
            {t('send')}
          </Button>
          <Button
            variant="secondary"
            onClick={() => navigate(paths.deposit.path, { state: { walletId: wallet.id } })}
            data-testid="wallet-receive"
          >
            {t('receive')}
          </Button>
        </div>
      )}
      <Button
        variant="ghost"
        block
        onClick={() => navigate(paths.reserves.path)}
        data-testid="wallet-reserves"
      >
        {t('reservesLink')}
      </Button>
      <h2 className={w.sectionTitle}>{t('detail.history')}</h2>
      <InfiniteList
        query={transfers}
        keyOf={(x) => `${x.type}-${x.transferId}`}
        renderItem={(x) => <TransferRow tr={x} />}
        texts={{
          empty: t('detail.empty'),
          loading: t('trade:list.loading'),
          end: t('detail.end'),
          error: t('detail.error'),
        }}
        testId="transfer-list"
      />
    </Page>
  );
}
