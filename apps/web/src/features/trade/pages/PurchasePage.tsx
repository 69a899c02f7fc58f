import { zodResolver } from '@hookform/resolvers/zod';
import type { BuyOrderCreateBody, Coin, DestType } from '@p2p/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { AddressField } from '../../../components/ui/AddressField';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { Skeleton } from '../../../components/ui/Skeleton';
import { StickyCta } from '../../../components/ui/StickyCta';
import { paths } from '../../../config/paths';
import { formatQty, formatWon } from '../../../lib/format';
import { formatWhen } from '../../../lib/format-time';
import { useKyc } from '../../../lib/kyc';
import { useWallets } from '../../wallet';
import { AmountField } from '../components/AmountField';
import { ListingSummary } from '../components/ListingSummary';
import { PurchaseNotice, PurchaseTypeMeaning } from '../components/PurchaseTypesHelp';
import { ReservePicker } from '../components/ReservePicker';
import {
  addressError,
  minimumKrw,
  type PurchaseValues,
  purchaseBlocker,
  purchaseRangeOf,
  purchaseSchema,
  receiveQtyOf,
} from '../purchase-rules';
import s from '../trade.module.css';
import { purchaseStateOf, type VerifyState } from '../trade-state';

/**
 * /purchase (SPEC §2, §5 "Purchase"): the listing card, the amount (quick-add, reset, direct input, min and
 * 9,500,000 max), the receive quantity, the receive address (personal or internal wallet) and, for a
 * reservation, date and time. Without tradeData/purchaseType it returns to /transaction.
 */
export default function PurchasePage() {
  const { t } = useTranslation('trade');
  const location = useLocation();
  const navigate = useNavigate();
  const state = purchaseStateOf(location.state);
  const wallets = useWallets();
  const minKrw = state ? minimumKrw(state.tradeData.minQty, state.tradeData.unitPriceKrw) : 0;
  // The amount's error shows while typing (mode onChange), like the 만원 readout beside it.
  const form = useForm<PurchaseValues>({
    resolver: (values, context, options) => zodResolver(purchaseSchema(minKrw))(values, context, options),
    mode: 'onChange',
    // Back from /verify: what was typed, kept in this history entry's state.
    defaultValues: state?.draft ?? {
      krw: 0,
      destType: 'INTERNAL',
      address: '',
      reserveDate: '',
      reserveTime: '',
    },
  });
  const { setValue, watch, formState } = form;
  const { krw, destType, address, reserveDate: date, reserveTime: time } = watch();
  const opts = { shouldValidate: true, shouldDirty: true };

  if (!state) return <Navigate to={paths.transaction.path} replace />;
  const { tradeData: listing, purchaseType } = state;
  const reserve = purchaseType === 'reserve';
  const range = purchaseRangeOf(listing);
  const wallet = wallets.data?.find((w) => w.coinCode === listing.coinCode && w.status === 'ACTIVE');
  const amountErr = formState.errors.krw?.message;
  const blocker = purchaseBlocker({
    coin: listing.coinCode,
    krw,
    minKrw,
    destType,
    hasWallet: Boolean(wallet),
    address,
    reserve,
    reserveDate: date,
    reserveTime: time,
  });

  const submit = form.handleSubmit((draft) => {
    if (blocker) return;
    // Going back from /verify lands on this entry: keep the form in its state first.
    navigate(location.pathname, { replace: true, state: { ...state, draft } });
    const request: BuyOrderCreateBody = {
      listingId: listing.listingId,
      krwAmount: krw,
      requestQty: receiveQtyOf(krw, listing.unitPriceKrw),
      destType,
      destWalletId: destType === 'INTERNAL' ? (wallet?.id ?? null) : null,
      destAddress: destType === 'EXTERNAL' ? address.trim() : null,
      reserveDate: reserve ? date : null,
      reserveTime: reserve ? time : null,
    };
    const next: VerifyState = { tradeData: listing, purchaseType, request };
    navigate(paths.verify.path, { state: next });
  });

  return (
    <Page title={t(reserve ? 'purchase.titleReserve' : 'purchase.titleInstant')}>
      <PurchaseTypeMeaning reserve={reserve} />
      <ListingSummary listing={listing} />
      <Card className={s.form}>
        <AmountField
          krw={krw}
          onChange={(k) => setValue('krw', k, opts)}
          error={amountErr ? t(`purchase.errors.${amountErr}`, { min: formatWon(minKrw) }) : undefined}
        />
        <div className={s.stack}>
          <span className={s.muted}>{t('purchase.receiveQty')}</span>
          <div className={s.readonlyBox} data-testid="receive-qty">
            <span>{formatQty(receiveQtyOf(krw, listing.unitPriceKrw))}</span>
            <span className={s.muted}>{listing.coinCode}</span>
          </div>
          {/* what the rounding down to 4 decimals keeps */}
          <span className={s.muted} style={{ wordBreak: 'keep-all' }} data-testid="receive-note">
            {krw > 0
              ? t('purchase.receiveNote', { krw: formatWon(krw), price: formatWon(listing.unitPriceKrw) })
              : t('purchase.rangeLine', { min: formatWon(range.min), max: formatWon(range.max) })}
          </span>
        </div>
      </Card>
      <ReceiveAddressCard
        coin={listing.coinCode}
        destType={destType}
        address={address}
        walletAddress={wallet?.address}
        walletsPending={wallets.isPending}
        onDestType={(d) => setValue('destType', d, opts)}
        onAddress={(a) => setValue('address', a, opts)}
      />
      {reserve && (
        <Card className={s.form}>
          <h2 className={s.sectionTitle}>{t('purchase.reserveTitle')}</h2>
          <ReservePicker
            date={date}
            time={time}
            onDate={(d) => setValue('reserveDate', d, opts)}
            onTime={(h) => setValue('reserveTime', h, opts)}
          />
          <span className={s.muted}>{t('purchase.reserveNote')}</span>
        </Card>
      )}
      <PurchaseNotice reserve={reserve} />
      <StickyCta>
        <Button
          block
          onClick={() => void submit()}
          disabled={Boolean(blocker)}
          aria-describedby="purchase-why"
          data-testid="purchase-submit"
        >
          {t('purchase.submit')}
        </Button>
        {/* a disabled button says why, unless its field already does; the line is always there */}
        <p
          id="purchase-why"
          className={s.muted}
          style={{ minHeight: 20, margin: '8px 0 0', textAlign: 'center' }}
          data-testid="purchase-why"
        >
          {blocker && blocker !== amountErr && blocker !== 'NO_WALLET'
            ? t(`purchase.errors.${blocker}`, { coin: listing.coinCode })
            : ''}
        </p>
      </StickyCta>
    </Page>
  );
}

/**
 * DECISIONS §19 holds, as GET /api/v1/kyc states them for this buyer: null while external delivery is
 * allowed, else when coins bought now could leave at the earliest (the API refuses an outside address with
 * WITHDRAWAL_HELD meanwhile). Until the answer is in, the outside address waits too ('pending'); if it cannot
 * be read, the choice stays open and the API's refusal (with its link to the holds) is the fallback.
 */
function usePurchaseHold(): string | 'pending' | null {
  const kyc = useKyc();
  if (kyc.isPending) return 'pending';
  return kyc.data?.purchaseHeldUntil ?? null;
}

/**
 * Where the coins go: the member's internal wallet (its address shown) or a personal wallet, whose address is
 * checked against the coin's address shape as it is typed or scanned (before the SMS step). While bought
 * coins are held (DECISIONS §19) the personal wallet is shown disabled with the reason and the time, so the
 * member never meets the API's WITHDRAWAL_HELD; a draft that chose it comes back as the internal wallet.
 */
function ReceiveAddressCard(p: {
  coin: Coin;
  destType: DestType;
  address: string;
  walletAddress: string | undefined;
  walletsPending: boolean;
  onDestType: (d: DestType) => void;
  onAddress: (a: string) => void;
}) {
  const { t } = useTranslation('trade');
  const invalid = addressError(p.coin, p.address);
  const held = usePurchaseHold();
  const { destType, onDestType } = p;
  useEffect(() => {
    if (held && destType === 'EXTERNAL') onDestType('INTERNAL');
  }, [held, destType, onDestType]);
  return (
    <Card className={s.form}>
      <h2 className={s.sectionTitle}>{t('purchase.receiveAddress')}</h2>
      <SegmentedControl<DestType>
        label={t('purchase.receiveAddress')}
        value={p.destType}
        onChange={p.onDestType}
        options={[
          { value: 'INTERNAL', label: t('purchase.destInternal') },
          { value: 'EXTERNAL', label: t('purchase.destExternal'), disabled: Boolean(held) },
        ]}
        testId="dest"
      />
      {held && held !== 'pending' && (
        <p className={s.muted} style={{ margin: '8px 0 0', wordBreak: 'keep-all' }} data-testid="dest-held">
          {t('purchase.externalHeld', { until: formatWhen(held) })}
        </p>
      )}
      <div style={{ marginTop: 8 }}>
        {p.destType === 'EXTERNAL' ? (
          <AddressField
            label={t('purchase.addressLabel')}
            value={p.address}
            placeholder={t('purchase.addressPlaceholder')}
            onChange={p.onAddress}
            error={invalid ? t(`purchase.errors.${invalid}`, { coin: p.coin }) : undefined}
            testId="dest-address"
            scanTestId="open-scanner"
          />
        ) : p.walletAddress ? (
          <div className={s.stack}>
            <span className={s.muted}>{t('purchase.internalAddress')}</span>
            <div className={`${s.readonlyBox} ${s.mono}`} data-testid="internal-address">
              {p.walletAddress}
            </div>
          </div>
        ) : p.walletsPending ? (
          <Skeleton height={48} />
        ) : (
          <div className={s.warning} data-testid="no-wallet">
            {t('purchase.errors.NO_WALLET')}
          </div>
        )}
      </div>
    </Card>
  );
}
