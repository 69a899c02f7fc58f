import { COINS, type Coin } from '@p2p/contract/enums.ts';
import { formatPhone } from '@p2p/contract/phone.ts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../../components/ui/KeyValue';
import { SegmentedControl } from '../../../components/ui/SegmentedControl';
import { SelectField } from '../../../components/ui/SelectField';
import { TextField } from '../../../components/ui/TextField';
import { accountDigitsHint, BANKS, bankNameOf, OTHER_BANK } from '../../../lib/banks';
import { formatBalance, formatWon } from '../../../lib/format';
import type { Profile } from '../../../lib/me';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { usePrices } from '../../home/api/get-prices';
import { useCreateWallet } from '../../wallet';
import { countryKey } from '../purchase-rules';
import {
  LISTING_TOTAL_LIMIT,
  type SellFields,
  sanitizeAccountNo,
  sanitizePrice,
  sanitizeSellQty,
} from '../sell-rules';
import s from '../trade.module.css';

/** The text of the form's one error when it is one of `codes` (sell.errors.*), else undefined. */
export type SellErrorText = (codes: string[]) => string | undefined;

interface CoinProps {
  coin: Coin;
  onCoin: (coin: Coin) => void;
  /** The active wallet of `coin`, if any: its address and balance. */
  wallet: { address: string; balance: string } | undefined;
  /** The member's wallets are still loading (no generate button to press yet). */
  walletsPending: boolean;
  errText: SellErrorText;
}

/**
 * /sell: the coin, the wallet it sells from (or a button that creates one), what it holds and, for reference
 * while pricing, the market rate.
 */
export function SellCoinSection({ coin, onCoin, wallet, walletsPending, errText }: CoinProps) {
  const { t } = useTranslation('trade');
  const createWallet = useCreateWallet();
  const marketKrw = usePrices().data?.prices.find((p) => p.coin === coin)?.krw;
  const generate = async () => {
    try {
      await createWallet.mutateAsync(coin);
      notify.success(t('wallet:create.success'));
    } catch (err) {
      notifyRefusal(err, 'wallet:create.failed', 'trade');
    }
  };
  return (
    <Card className={s.form}>
      <h2 className={s.sectionTitle}>{t('sell.coin')}</h2>
      <SegmentedControl<Coin>
        label={t('sell.coin')}
        value={coin}
        onChange={onCoin}
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
            disabled={walletsPending || createWallet.isPending}
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
            {t('sell.available', { qty: wallet ? formatBalance(wallet.balance) : '0', coin })}
          </span>
          <span data-testid="sell-market">
            {marketKrw === undefined ? '' : t('sell.market', { krw: formatWon(marketKrw) })}
          </span>
        </div>
      </div>
    </Card>
  );
}

interface TermsProps {
  fields: Pick<SellFields, 'minQty' | 'maxQty' | 'unitPriceKrw'>;
  /** What the maximum quantity comes to at the unit price (grouped won, null until both are there), and
   * whether it passes the listing total limit. */
  total: { krw: string | null; over: boolean };
  set: (name: 'minQty' | 'maxQty' | 'unitPriceKrw', value: string) => void;
  errText: SellErrorText;
}

/** /sell: the minimum and maximum quantity and the unit price in won, each cleaned as it is typed. */
export function SellTermsSection({ fields, total, set, errText }: TermsProps) {
  const { t } = useTranslation('trade');
  const { minQty, maxQty, unitPriceKrw: price } = fields;
  // Beyond the limit the total line turns into the refusal at once, in won, before any submit.
  const overText = total.over
    ? t('sell.errors.LISTING_TOTAL_TOO_HIGH', { limit: LISTING_TOTAL_LIMIT, krw: total.krw })
    : undefined;
  return (
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
        error={overText ?? errText(['LISTING_TOTAL_TOO_HIGH'])}
        hint={total.krw === null ? undefined : t('sell.total', { krw: total.krw })}
        aside={
          <span className={s.muted} style={{ alignSelf: 'center' }}>
            {t('wonUnit')}
          </span>
        }
        data-testid="sell-price"
      />
    </Card>
  );
}

/** /sell: who sells, from the profile (read-only). */
export function SellerInfoSection({ me }: { me: Profile | undefined }) {
  const { t } = useTranslation('trade');
  return (
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
  );
}

interface AccountProps {
  fields: Pick<SellFields, 'bank' | 'customBank' | 'accountNo'>;
  set: (name: 'bank' | 'customBank' | 'accountNo', value: string) => void;
  errText: SellErrorText;
}

/** /sell: the account buyers pay into: a bank from the list (or 기타 with its name typed) and the number. */
export function SellAccountSection({ fields, set, errText }: AccountProps) {
  const { t } = useTranslation('trade');
  const { bank, customBank, accountNo } = fields;
  return (
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
        error={errText(['ACCOUNT_NO_DIGITS', 'ACCOUNT_NO_LENGTH'])}
        hint={bank ? accountDigitsHint(bankNameOf(bank, customBank)) : undefined}
        data-testid="sell-account"
      />
    </Card>
  );
}

/** /sell: what happens after the request (review, escrow) and whose account to use. */
export function SellNotice() {
  const { t } = useTranslation('trade');
  return (
    <ul className={s.notice}>
      <li>{t('sell.notice.review')}</li>
      <li>{t('sell.notice.escrow')}</li>
      <li>{t('sell.notice.ownAccount')}</li>
    </ul>
  );
}
