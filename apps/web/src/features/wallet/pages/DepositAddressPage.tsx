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

/** Copies `value`, and says so on the button for LIMITS.copyConfirmMs; a refused clipboard gets a toast. */
function useCopy(value: string | null | undefined, failText: string) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const copy = async () => {
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => setCopied(false), LIMITS.copyConfirmMs);
    } catch {
      notify.error(failText);
    }
  };
  return { copied, copy };
}

/** The QR code of `address` as a data URL (null until drawn, or without an address). */
function useQr(address: string | undefined): string | null {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    if (!address) return;
    let live = true;
    void QRCode.toDataURL(address, QR_OPTIONS).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [address]);
  return qr;
}

/**
 * /deposit (SPEC §2): the wallet's deposit address, its QR code and a copy button (confirmation for 2 s).
 * XRP (DECISIONS §17): the platform's receiving account and the wallet's destination tag, each with its own
 * copy button, under a warning that a deposit without the tag is not credited by itself and arrives late.
 */
export default function DepositAddressPage() {
  const { t } = useTranslation('wallet');
  const id = walletIdOf(useLocation().state);
  const wallets = useWallets();
  const wallet = pickWallet(wallets.data, id);
  const address = wallet?.address;
  const qr = useQr(address);
  const tag = wallet?.destinationTag ?? null;
  const addressCopy = useCopy(address, t('deposit.copyFailed'));
  const tagCopy = useCopy(tag === null ? null : String(tag), t('deposit.copyFailed'));

  if (id === null || (wallets.isSuccess && !wallet)) return <Navigate to={paths.myInfo.path} replace />;

  return (
    <Page title={t('deposit.title')}>
      <Card className={w.qrBox}>
        <h2 className={w.sectionTitle}>
          {wallet
            ? tag !== null
              ? t('deposit.xrpHeading')
              : t('deposit.heading', { coin: t(`common:coins.${wallet.coinCode}`) })
            : ''}
        </h2>
        {tag !== null && (
          <div className={`${w.warning} ${w.tagWarning}`} role="note" data-testid="deposit-tag-warning">
            <strong className={w.warningTitle}>{t('deposit.tagWarningTitle')}</strong>
            {t('deposit.tagWarning', { tag })}
          </div>
        )}
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
        {wallet && (
          <p className={w.networkLine} data-testid="deposit-network">
            {t('network.label')} <strong>{t(`network.${wallet.coinCode}`)}</strong>
          </p>
        )}
        <div className={w.addressBox}>
          <div className={w.muted}>{t('deposit.address')}</div>
          <div className={w.mono} style={{ fontSize: 14 }} data-testid="deposit-address">
            {address}
          </div>
        </div>
        <Button
          block
          variant={addressCopy.copied ? 'secondary' : 'primary'}
          onClick={() => void addressCopy.copy()}
          data-testid="deposit-copy"
        >
          {addressCopy.copied ? t('deposit.copied') : t('deposit.copy')}
        </Button>
        {tag !== null && (
          <>
            <div className={w.addressBox}>
              <div className={w.muted}>{t('deposit.tag')}</div>
              <div className={w.tagValue} data-testid="deposit-tag">
                {tag}
              </div>
            </div>
            <Button
              block
              variant={tagCopy.copied ? 'secondary' : 'primary'}
              onClick={() => void tagCopy.copy()}
              data-testid="deposit-copy-tag"
            >
              {tagCopy.copied ? t('deposit.tagCopied') : t('deposit.copyTag')}
            </Button>
          </>
        )}
        <p className={w.muted} style={{ margin: 0 }} data-testid="deposit-note">
          {wallet ? (tag !== null ? t('deposit.xrpNote') : t('deposit.note', { coin: wallet.coinCode })) : ''}
        </p>
      </Card>
    </Page>
  );
}
