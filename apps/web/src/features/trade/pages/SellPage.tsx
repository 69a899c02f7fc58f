import { zodResolver } from '@hookform/resolvers/zod';
import { COINS, type Coin } from '@p2p/contract/enums.ts';
import { formatPhone } from '@p2p/contract/phone.ts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { SelectField } from '../../../components/ui/SelectField';
import { StickyCta } from '../../../components/ui/StickyCta';
import { TextField } from '../../../components/ui/TextField';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { BANKS, bankChoiceOf, bankNameOf, OTHER_BANK } from '../../../lib/banks';
import { errorText } from '../../../lib/errors';
import { formatQty, formatWon } from '../../../lib/format';
import { useMe } from '../../../lib/me';
import { notify } from '../../../lib/toast';
import { usePrices } from '../../home/api/get-prices';
import { useCreateWallet, useWallets, wonValueOf } from '../../wallet';
import { useCreateListing } from '../api/create-listing';
import { type SellReview, SellReviewSheet } from '../components/SellReviewSheet';
import { countryKey } from '../purchase-rules';
import {
  parsePrice,
  type SellFields,
  sanitizeAccountNo,
  sanitizePrice,
  sanitizeSellQty,
  sellSchema,
} from '../sell-rules';
import s from '../trade.module.css';
import type { ReceiptState } from '../trade-state';

/**
 * /sell (SPEC §2, §5 "Sell"): coin, the wallet address (or a generate-wallet button), min/max quantity,
 * unit price, seller info, bank (with 기타 + free text) and account number. The rules are checked in SPEC
 * order with their Korean messages. A valid form opens a review sheet with the account buyers will pay into,
 * where the member confirms with the password (DECISIONS §13 step-up: a stolen session alone cannot put up a
 * listing paying another account); success shows the sell receipt.
 */
export default function SellPage() {
  const { t } = useTranslation('trade');
  const navigate = useNavigate();
  const me = useMe().data;
  const wallets = useWallets();
  const createWallet = useCreateWallet();
  const createListing = useCreateListing();
  const [review, setReview] = useState<SellReview | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>(undefined);
  const initialBank = bankChoiceOf(me?.bankName);
  // One error at a time, the first broken rule in SPEC order; it stays until the next try or another coin.
  const form = useForm<SellFields>({
    resolver: (values, context, options) =>
      zodResolver(sellSchema(Boolean(walletOf(values.coin))))(values, context, options),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: {
      coin: 'BTC',
      minQty: '',
      maxQty: '',
      unitPriceKrw: '',
      bank: initialBank.bank,
      customBank: initialBank.customBank,
      accountNo: me?.accountNo ?? '',
    },
  });
  const { setValue, watch, clearErrors, formState } = form;
  const v = watch();
  const coin = v.coin as Coin;
  const { minQty, maxQty, unitPriceKrw: price, bank, customBank, accountNo } = v;
  const set = (name: keyof SellFields, value: string) => setValue(name, value);
  function walletOf(c: string) {
    return wallets.data?.find((w) => w.coinCode === c && w.status === 'ACTIVE');
  }
  const wallet = walletOf(coin);
  // For reference while pricing (issue 13): what the seller holds, the market rate and what it all comes to.
  const marketKrw = usePrices().data?.prices.find((p) => p.coin === coin)?.krw;
  const unitPrice = parsePrice(price);
  const maxPlain = maxQty.replace(/\.$/, '');
  const totalKrw = maxPlain && unitPrice > 0 ? wonValueOf(maxPlain, unitPrice) : null;

  const generate = async () => {
    try {
      await createWallet.mutateAsync(coin);
      notify.success(t('wallet:create.success'));
    } catch (err) {
      notify.error(errorText(err, 'wallet:create.failed', 'trade'));
    }
  };

  const onInvalid = (errors: typeof formState.errors) => {
    const code = Object.values(errors)[0]?.message;
    if (code) notify.error(t(`sell.errors.${code}`));
    // the message sits next to its field: bring that field into view (issue 13)
    requestAnimationFrame(() =>
      document
        .querySelector('[aria-invalid="true"], [data-sell-error="true"]')
        ?.scrollIntoView({ block: 'center' }),
    );
  };
  // The form's rules passed: show what will be listed and where buyers pay, and ask for the password.
  const onValid = () => {
    if (!wallet) return;
    const bankName = bankNameOf(bank, customBank);
    setReview({
      coin,
      minQty: minQty.replace(/\.$/, ''),
      maxQty: maxQty.replace(/\.$/, ''),
      unitPriceKrw: parsePrice(price),
      bankName,
      accountNo,
      accountHolder: me?.name ?? '',
      otherThanProfile: bankName !== me?.bankName || accountNo !== me?.accountNo,
    });
    setPassword('');
    setPasswordError(undefined);
    setReviewing(true);
  };
  const confirm = async () => {
    if (!wallet || !review || createListing.isPending) return;
    if (!password) return setPasswordError(t('common:stepUp.required'));
    try {
      const listing = await createListing.mutateAsync({
        walletId: wallet.id,
        minQty: review.minQty,
        maxQty: review.maxQty,
        unitPriceKrw: review.unitPriceKrw,
        bankName: review.bankName,
        accountNo: review.accountNo,
        stepUp: { password },
      });
      const receipt: ReceiptState = { kind: 'sell', listing };
      navigate(paths.requestSuccessfully.path, { state: receipt });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CREDENTIALS') {
        setPasswordError(t('common:stepUp.wrongPassword'));
        return;
      }
      setReviewing(false);
      notify.error(errorText(err, 'trade:sell.failed', 'trade'));
    }
  };

  const error = Object.values(formState.errors)[0]?.message;
  const errText = (codes: string[]) =>
    error && codes.includes(error) ? t(`sell.errors.${error}`) : undefined;

  return (
    <Page title={t('sell.title')}>
      <Card className={s.form}>
        <h2 className={s.sectionTitle}>{t('sell.coin')}</h2>
        <SegmentedControl<Coin>
          label={t('sell.coin')}
          value={coin}
          onChange={(c) => {
            set('coin', c);
            clearErrors();
          }}
          options={COINS.map((c) => ({ value: c, label: c }))}
          testId="sell-coin"
        />
        <div className={s.stack} style={{ marginTop: 8 }}>
          <span className={s.muted}>{t('sell.walletAddress')}</span>
          {wallet ? (
            <div className={`${s.readonlyBox} ${s.mono}`} data-testid="sell-wallet-address">
              {wallet.address}
            </div>
          ) : (
            <Button
              variant="secondary"
              block
              onClick={() => void generate()}
              disabled={wallets.isPending || createWallet.isPending}
              data-testid="sell-generate-wallet"
            >
              {t('sell.generateWallet')}
            </Button>
          )}
          <span
            className={s.muted}
            style={{ minHeight: 18, fontSize: 12, color: 'var(--color-danger)' }}
            data-sell-error={errText(['WALLET_REQUIRED']) ? 'true' : undefined}
          >
            {errText(['WALLET_REQUIRED'])}
          </span>
          <div className={s.muted} style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
            <span data-testid="sell-available">
              {t('sell.available', { qty: wallet ? formatQty(wallet.balance, 8) : '0', coin })}
            </span>
            <span data-testid="sell-market">
              {marketKrw === undefined ? '' : t('sell.market', { krw: formatWon(marketKrw) })}
            </span>
          </div>
        </div>
      </Card>
      <Card className={s.form}>
        <h2 className={s.sectionTitle}>{t('sell.terms')}</h2>
        <div className={s.row2}>
          <TextField
            label={t('sell.minQty')}
            inputMode="decimal"
            value={minQty}
            placeholder="0.0000"
            onChange={(e) => set('minQty', sanitizeSellQty(e.currentTarget.value))}
            error={errText(['REQUIRED_FIELDS', 'NOT_POSITIVE', 'MIN_ABOVE_MAX'])}
            data-testid="sell-min"
          />
          <TextField
            label={t('sell.maxQty')}
            inputMode="decimal"
            value={maxQty}
            placeholder="0.0000"
            onChange={(e) => set('maxQty', sanitizeSellQty(e.currentTarget.value))}
            data-testid="sell-max"
          />
        </div>
        <TextField
          label={t('sell.unitPrice')}
          inputMode="numeric"
          value={price}
          placeholder="0"
          onChange={(e) => set('unitPriceKrw', sanitizePrice(e.currentTarget.value))}
          hint={totalKrw === null ? undefined : t('sell.total', { krw: formatWon(totalKrw) })}
          aside={
            <span className={s.muted} style={{ alignSelf: 'center' }}>
              {t('wonUnit')}
            </span>
          }
          data-testid="sell-price"
        />
      </Card>
      <Card>
        <h2 className={s.sectionTitle}>{t('sell.sellerInfo')}</h2>
        <KeyValueList>
          <KeyValue label={t('receipt.sellerId')}>{me?.loginId}</KeyValue>
          <KeyValue label={t('purchase.nationality')}>
            {t(`purchase.country.${countryKey(me?.countryCode ?? '')}`)}
          </KeyValue>
          <KeyValue label={t('sell.name')}>{me?.name}</KeyValue>
          <KeyValue label={t('receipt.phone')}>{me?.phoneE164 ? formatPhone(me.phoneE164) : ''}</KeyValue>
        </KeyValueList>
      </Card>
      <Card className={s.form}>
        <h2 className={s.sectionTitle}>{t('sell.account')}</h2>
        <SelectField
          label={t('receipt.bank')}
          value={bank}
          placeholder={t('sell.bankPlaceholder')}
          options={[
            ...BANKS.map((b) => ({ value: b, label: b })),
            { value: OTHER_BANK, label: t('sell.otherBank') },
          ]}
          onChange={(e) => set('bank', e.currentTarget.value)}
          error={errText(['BANK_REQUIRED'])}
          data-testid="sell-bank"
        />
        {bank === OTHER_BANK && (
          <TextField
            label={t('sell.customBank')}
            value={customBank}
            onChange={(e) => set('customBank', e.currentTarget.value)}
            error={errText(['BANK_NAME_REQUIRED'])}
            data-testid="sell-custom-bank"
          />
        )}
        <TextField
          label={t('receipt.accountNo')}
          inputMode="numeric"
          value={accountNo}
          placeholder={t('sell.accountPlaceholder')}
          onChange={(e) => set('accountNo', sanitizeAccountNo(e.currentTarget.value))}
          data-testid="sell-account"
        />
      </Card>
      <ul className={s.notice}>
        <li>{t('sell.notice.review')}</li>
        <li>{t('sell.notice.escrow')}</li>
        <li>{t('sell.notice.ownAccount')}</li>
      </ul>
      <StickyCta>
        <Button
          block
          onClick={() => void form.handleSubmit(onValid, onInvalid)()}
          disabled={createListing.isPending}
          data-testid="sell-submit"
        >
          {createListing.isPending ? t('sell.submitting') : t('sell.submit')}
        </Button>
      </StickyCta>
      <SellReviewSheet
        open={reviewing}
        review={review}
        password={password}
        error={passwordError}
        busy={createListing.isPending}
        onPassword={(value) => {
          setPassword(value);
          setPasswordError(undefined);
        }}
        onConfirm={() => void confirm()}
        onClose={() => setReviewing(false)}
      />
    </Page>
  );
}
