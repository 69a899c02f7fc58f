import type { Coin } from '@p2p/contract/enums.ts';
import type { TFunction } from 'i18next';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { StickyCta } from '../../../components/ui/StickyCta';
import { useMe } from '../../../lib/me';
import { notify } from '../../../lib/toast';
import { useWallets } from '../../wallet';
import { ExistingListingNotice, useActiveListingOf } from '../components/ExistingListingNotice';
import {
  SellAccountSection,
  SellCoinSection,
  SellerInfoSection,
  SellNotice,
  SellTermsSection,
} from '../components/SellFormSections';
import { SellReviewSheet } from '../components/SellReviewSheet';
import { useSellForm } from '../hooks/use-sell-form';
import { useSellReview } from '../hooks/use-sell-review';
import { LISTING_TOTAL_LIMIT, listingTotal, type SellFields } from '../sell-rules';

/** A refused form: the first broken rule as a toast, and its field brought into view. */
function showFirstError(
  errors: FieldErrors<SellFields>,
  t: TFunction<'trade'>,
  vars: Record<string, string | null>,
): void {
  const code = Object.values(errors)[0]?.message;
  if (code) notify.error(t(`sell.errors.${code}`, vars));
  // the message sits next to its field: bring that field into view
  requestAnimationFrame(() =>
    document
      .querySelector('[aria-invalid="true"], [data-sell-error="true"]')
      ?.scrollIntoView({ block: 'center' }),
  );
}

/**
 * /sell (SPEC §2, §5 "Sell"): coin, the wallet address (or a generate-wallet button), min/max quantity,
 * unit price, seller info, bank (with 기타 + free text) and account number. The rules are checked in SPEC
 * order with their Korean messages. A valid form opens a review sheet with the account buyers will pay into,
 * where the member confirms with the password (DECISIONS §13 step-up: a stolen session alone cannot put up a
 * listing paying another account); success shows the sell receipt. A coin the member already sells says so
 * first, with a link to that listing, and the button stays disabled (one active listing per coin).
 */
export default function SellPage() {
  const { t } = useTranslation('trade');
  const me = useMe().data;
  const wallets = useWallets();
  const { form, walletOf } = useSellForm(me, wallets.data);
  const { setValue, watch, clearErrors, formState } = form;
  const v = watch();
  const coin = v.coin as Coin;
  const set = (name: keyof SellFields, value: string) => setValue(name, value);
  const wallet = walletOf(coin);
  // DECISIONS §4: one active listing per coin, said before the form is filled rather than after
  const existing = useActiveListingOf(coin);
  const review = useSellReview(me, wallet?.id ?? null);
  // For reference while pricing: what the seller holds, the market rate and what it all comes to (exact:
  // 100,000,000 TRX at 100,000,000 won is a message beyond the limit, never a crash).
  const total = listingTotal(v.maxQty, v.unitPriceKrw);
  const vars = { limit: LISTING_TOTAL_LIMIT, krw: total.krw };

  const error = Object.values(formState.errors)[0]?.message;
  const errText = (codes: string[]) =>
    error && codes.includes(error) ? t(`sell.errors.${error}`, vars) : undefined;

  return (
    <Page title={t('sell.title')}>
      <SellCoinSection
        coin={coin}
        onCoin={(c) => {
          set('coin', c);
          clearErrors();
        }}
        wallet={wallet}
        walletsPending={wallets.isPending}
        errText={errText}
      />
      {existing && <ExistingListingNotice coin={coin} listingId={existing.listingId} />}
      <SellTermsSection fields={v} total={total} set={set} errText={errText} />
      <SellerInfoSection me={me} />
      <SellAccountSection fields={v} set={set} errText={errText} />
      <SellNotice />
      <StickyCta>
        <Button
          block
          // The form's rules passed: show what will be listed and where buyers pay, and ask for the password.
          onClick={() =>
            void form.handleSubmit(
              () => review.open(v),
              (errors) => showFirstError(errors, t, vars),
            )()
          }
          disabled={review.busy || Boolean(existing)}
          data-testid="sell-submit"
        >
          {review.busy ? t('sell.submitting') : t('sell.submit')}
        </Button>
      </StickyCta>
      <SellReviewSheet {...review.sheet} />
    </Page>
  );
}
