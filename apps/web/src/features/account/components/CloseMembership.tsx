import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { PasswordField } from '../../../components/ui/PasswordField';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { notify } from '../../../lib/toast';
import { useLogout } from '../../../lib/use-logout';
import s from '../account.module.css';
import { useCloseMembership } from '../api/records';

/** RETENTION_YEARS's default (DECISIONS §19); the answer of a closing says the real date. */
const RETENTION_YEARS = 5;

/** What a refusal ACCOUNT_NOT_EMPTY says is left, as one sentence per kind. */
function leftText(err: unknown, t: (k: string, o?: Record<string, unknown>) => string): string | null {
  if (!(err instanceof ApiError) || err.code !== 'ACCOUNT_NOT_EMPTY') return null;
  const d = err.data as {
    liveOrders?: number;
    activeListings?: number;
    pendingTransfers?: number;
    balances?: unknown[];
  };
  const parts = [
    d.liveOrders ? t('close.left.orders', { n: d.liveOrders }) : null,
    d.activeListings ? t('close.left.listings', { n: d.activeListings }) : null,
    d.pendingTransfers ? t('close.left.transfers', { n: d.pendingTransfers }) : null,
    d.balances?.length ? t('close.left.balances') : null,
  ].filter(Boolean);
  return parts.join(' ');
}

/**
 * 회원 탈퇴 (DECISIONS §19): a sheet that says what closing does (sign-in ends for good, what is kept and for how
 * long, that orders, listings and balances must be gone first), asks for the password and closes; then the
 * member is signed out. A refusal names what is left.
 */
export function CloseMembership() {
  const { t } = useTranslation('account');
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const close = useCloseMembership();
  const logout = useLogout();
  const left = leftText(close.error, t);
  const submit = () =>
    close.mutate(
      { currentPassword: password },
      {
        onSuccess: async () => {
          notify.success(t('close.done'));
          await logout();
        },
      },
    );
  return (
    <>
      <Button
        variant="ghost"
        className={s.closeLink}
        onClick={() => setOpen(true)}
        data-testid="close-membership"
      >
        {t('close.open')}
      </Button>
      <Modal
        open={open}
        title={t('close.title')}
        onClose={() => {
          setOpen(false);
          close.reset();
        }}
        footer={() => (
          <Button
            block
            disabled={close.isPending || password === ''}
            onClick={submit}
            data-testid="close-confirm"
          >
            {close.isPending ? t('close.closing') : t('close.confirm')}
          </Button>
        )}
      >
        <div className={s.form} data-testid="close-sheet">
          <p style={{ margin: 0 }}>{t('close.intro')}</p>
          <ul className={s.keptList}>
            <li>{t('close.kept.records', { years: RETENTION_YEARS })}</li>
            <li>{t('close.kept.logins')}</li>
            <li>{t('close.kept.names')}</li>
            <li>{t('close.kept.empty')}</li>
          </ul>
          <PasswordField
            label={t('modify.currentPassword')}
            value={password}
            autoComplete="current-password"
            onChange={(e) => setPassword(e.target.value)}
            data-testid="close-password"
          />
          {close.isError && (
            <p role="alert" className={s.bad} style={{ margin: 0 }} data-testid="close-error">
              {left || errorText(close.error, 'common:errors.INTERNAL_ERROR')}
            </p>
          )}
        </div>
      </Modal>
    </>
  );
}
