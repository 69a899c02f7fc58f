import { zodResolver } from '@hookform/resolvers/zod';
import type { Wallet } from '@p2p/contract';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { Page } from '../../../components/layout/Page';
import { Button } from '../../../components/ui/Button';
import { StickyCta } from '../../../components/ui/StickyCta';
import { paths } from '../../../config/paths';
import { useWallets } from '../api/get-wallets';
import { BeneficiaryFields } from '../components/BeneficiaryFields';
import { WalletSummary } from '../components/WalletSummary';
import { WithdrawFields } from '../components/WithdrawFields';
import { WithdrawReviewSheet } from '../components/WithdrawReviewSheet';
import { useWithdrawal } from '../hooks/use-withdrawal';
import { pickWallet, walletIdOf } from '../wallet-state';
import { plainAmount, type WithdrawValues, withdrawSchema } from '../withdraw-rules';

/**
 * /withdraw (SPEC §2, §5 "Withdraw"; DECISIONS §5): send coins to another member's wallet (INTERNAL,
 * instant) or an outside address (EXTERNAL, pending until the operator sends it). The amount allows digits
 * and one dot, 6 decimals, with separators; above the balance it is an error; the button is disabled when
 * empty, in error or sending. An external withdrawal cannot be undone, so it first opens a review sheet
 * (address, amount, fee, what arrives) where the member confirms with the password (DECISIONS §13 step-up).
 * XRP adds the destination tag field (DECISIONS §17: optional, an integer 0..2^32-1), shown on the review too.
 * An external amount worth TRAVEL_RULE_MIN_KRW or more adds the beneficiary step (DECISIONS §19 Travel Rule).
 */
export default function WithdrawPage() {
  const { t } = useTranslation('wallet');
  const id = walletIdOf(useLocation().state);
  const wallets = useWallets();
  const wallet = pickWallet(wallets.data, id);
  // Errors show while typing (mode onChange); the rules need the wallet's coin and balance, read each render.
  const form = useForm<WithdrawValues>({
    resolver: (values, context, options) =>
      zodResolver(withdrawSchema(wallet?.coinCode, wallet?.balance ?? '0', wallet))(values, context, options),
    mode: 'onChange',
    defaultValues: { destType: 'INTERNAL', address: '', amount: '', password: '', destTag: '' },
  });
  if (id === null || (wallets.isSuccess && !wallet)) return <Navigate to={paths.myInfo.path} replace />;
  if (!wallet) return <Page title={t('withdraw.title')}>{null}</Page>;
  return (
    <Page title={t('withdraw.title')}>
      <WithdrawForm form={form} wallet={wallet} />
    </Page>
  );
}

/** The loaded wallet's form, its send button and the review sheet behind it. */
function WithdrawForm({ form, wallet }: { form: UseFormReturn<WithdrawValues>; wallet: Wallet }) {
  const { t } = useTranslation('wallet');
  const withdrawal = useWithdrawal(wallet, form);
  const { destType, address, amount, password } = form.watch();
  // The withdrawal fee is charged on external withdrawals only; an internal transfer arrives whole.
  const fee = destType === 'EXTERNAL' ? (wallet.withdrawFee ?? '0') : '0';
  return (
    <>
      <WalletSummary wallet={wallet} />
      <WithdrawFields form={form} wallet={wallet} />
      {withdrawal.travelRule.needed && (
        <BeneficiaryFields form={form} minKrw={withdrawal.travelRule.minKrw} />
      )}
      <StickyCta>
        <Button
          block
          disabled={!withdrawal.ready || withdrawal.looking}
          onClick={() => void withdrawal.openReview()}
          data-testid="withdraw-submit"
        >
          {withdrawal.pending
            ? t('withdraw.sending')
            : withdrawal.looking
              ? t('withdraw.review.checking')
              : t('withdraw.review.open')}
        </Button>
      </StickyCta>
      <WithdrawReviewSheet
        open={withdrawal.reviewing}
        busy={withdrawal.pending}
        coin={wallet.coinCode}
        address={address.trim()}
        recipient={withdrawal.recipient}
        tag={withdrawal.reviewTag}
        amount={plainAmount(amount)}
        fee={fee}
        beneficiary={withdrawal.travelRule.beneficiary}
        password={password}
        passwordError={form.formState.errors.password?.message}
        onPassword={(value) => {
          form.setValue('password', value);
          form.clearErrors('password');
        }}
        onConfirm={withdrawal.confirm}
        onClose={withdrawal.closeReview}
      />
    </>
  );
}
