import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { paths } from '../../../config/paths';
import { useKyc } from '../api/kyc';

/** The way into the verification center from /myinfo and /account, with the member's level (DECISIONS §19). */
export function VerificationEntry() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const level = useKyc().data?.level;
  return (
    <Button
      block
      variant="secondary"
      onClick={() => navigate(paths.verification.path)}
      data-testid="to-verification"
    >
      {t('verification.entry')}
      {level === undefined ? null : ` · ${t('verification.levelName', { level })}`}
    </Button>
  );
}
