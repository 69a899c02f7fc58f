import { LIMITS } from '@p2p/contract/limits.ts';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { paths } from '../../../config/paths';
import { notify } from '../../../lib/toast';
import { useWallets } from '../api/get-wallets';
import w from '../wallet.module.css';
import { pickWallet, walletIdOf } from '../wallet-state';

/** QR output of SPEC §9: width 240, margin 4, error correction M. */
export const QR_OPTIONS = { width: 240, margin: 4, errorCorrectionLevel: 'M' } as const;

/** /deposit (SPEC §2): the wallet's deposit address, its QR code and a copy button (confirmation for 2 s). */
export default function DepositPage() {
  const { t } = useTranslation('wallet');
  const id = walletIdOf(useLocation().state);
  const wallets = useWallets();
  const wallet = pickWallet(wallets.data, id);
  const [qr, setQr] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const address = wallet?.address;

  useEffect(() => {
    if (!address) return;
    let live = true;
    void QRCode.toDataURL(address, QR_OPTIONS).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [address]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (id === null || (wallets.isSuccess && !wallet)) return <Navigate to={paths.myInfo.path} replace />;

  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), LIMITS.copyConfirmMs);
    } catch {
      notify.error(t('deposit.copyFailed'));
    }
  };

  return (
    <Page title={t('deposit.title')}>
      <Card className={w.qrBox}>
        <h2 className={w.sectionTitle}>
          {wallet ? t('deposit.heading', { coin: t(`common:coins.${wallet.coinCode}`) }) : ''}
        </h2>
        {qr ? (
          <img
            src={qr}
            width={240}
            height={240}
            className={w.qrImage}
            alt={t('deposit.qrAlt')}
            data-testid="deposit-qr"
          />
        ) : (
          <div className={w.qrImage} />
        )}
        <div className={w.addressBox}>
          <div className={w.muted}>{t('deposit.address')}</div>
          <div className={w.mono} style={{ fontSize: 14 }} data-testid="deposit-address">
            {address}
          </div>
        </div>
        <Button
          block
          variant={copied ? 'secondary' : 'primary'}
          onClick={() => void copy()}
          data-testid="deposit-copy"
        >
          {copied ? t('deposit.copied') : t('deposit.copy')}
        </Button>
        <p className={w.muted} style={{ margin: 0 }}>
          {wallet ? t('deposit.note', { coin: wallet.coinCode }) : ''}
        </p>
      </Card>
    </Page>
  );
}
