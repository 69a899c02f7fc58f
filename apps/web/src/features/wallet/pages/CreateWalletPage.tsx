import { COINS, type Coin } from '@p2p/contract/enums.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { CoinIcon } from '../../../components/ui/CoinIcon';
import { Skeleton } from '../../../components/ui/Skeleton';
import { paths } from '../../../config/paths';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { useCreateWallet } from '../api/create-wallet';
import { useWallets } from '../api/get-wallets';
import w from '../wallet.module.css';

/** /create_wallet (SPEC §2, §5): choose one of the coins without a wallet yet and create it. */
export default function CreateWalletPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const wallets = useWallets();
  const create = useCreateWallet();
  const [coin, setCoin] = useState<Coin | null>(null);
  const owned = new Set(wallets.data?.map((x) => x.coinCode));
  const available = COINS.filter((c) => !owned.has(c));

  const submit = async () => {
    if (!coin) return;
    try {
      await create.mutateAsync(coin);
      notify.success(t('create.success'));
      navigate(paths.myInfo.path, { replace: true });
    } catch (err) {
      notifyRefusal(err, 'wallet:create.failed', 'trade');
    }
  };

  return (
    <Page title={t('create.title')}>
      <Card className={w.form}>
        <h2 className={w.sectionTitle}>{t('create.choose')}</h2>
        <p className={w.muted} style={{ margin: 0 }}>
          {t('create.description')}
        </p>
        {wallets.isPending ? (
          <div className={w.coinGrid} role="status" aria-busy="true" data-testid="create-skeleton">
            <span className="visually-hidden">{t('common:loading')}</span>
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={72} />
            ))}
          </div>
        ) : available.length === 0 ? (
          <p className={w.muted} data-testid="create-none">
            {t('create.none')}
          </p>
        ) : (
          <fieldset className={w.coinGrid} aria-label={t('create.choose')}>
            {available.map((c) => (
              <button
                key={c}
                type="button"
                aria-pressed={coin === c}
                className={`${w.coinChoice} ${coin === c ? w.coinChoiceActive : ''}`}
                onClick={() => setCoin(c)}
                data-testid={`create-coin-${c}`}
              >
                <CoinIcon coin={c} size={32} />
                <span>
                  <span className={w.coinName} style={{ display: 'block' }}>
                    {t(`common:coins.${c}`)}
                  </span>
                  <span className={w.coinSymbol}>{c}</span>
                </span>
              </button>
            ))}
          </fieldset>
        )}
      </Card>
      <Button
        block
        disabled={!coin || create.isPending}
        onClick={() => void submit()}
        data-testid="create-submit"
      >
        {create.isPending ? t('create.submitting') : t('create.submit')}
      </Button>
    </Page>
  );
}
