import type { BankAccountState, KycStatus } from '@p2p/contract';
import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';
import { formatWon } from '../../../lib/format';
import s from '../account.module.css';

/** The next step of the verification center: the lowest missing level, then the 1원 check, else none. */
export function nextStep(kyc: KycStatus, bank: BankAccountState | undefined) {
  if (kyc.level < 1) return 'identity';
  if (bank && !bank.verified) return 'bank';
  if (kyc.level < 2) return kyc.document?.status === 'PENDING' ? 'reviewing' : 'document';
  return 'done';
}

/**
 * The member's identity level (DECISIONS §19), what each level allows (trading and external withdrawals from
 * KYC_TRADE_LEVEL, the KYC1_DAILY_KRW a day below level 2), and the next step as a link to its section.
 */
export function KycLevelCard({ kyc, bank }: { kyc: KycStatus; bank: BankAccountState | undefined }) {
  const { t } = useTranslation('account');
  const step = nextStep(kyc, bank);
  const limit = formatWon(kyc.level1DailyKrw);
  const rows = [0, 1, 2].map((level) => ({
    level,
    text: t(`verification.allows.${level}`, { limit }),
  }));
  return (
    <Card className={s.rows} data-testid="kyc-level-card">
      <p className={s.levelNow}>
        {t('verification.levelNow')} <strong data-testid="kyc-level">{kyc.level}</strong>
      </p>
      <ul className={s.levels}>
        {rows.map((r) => (
          <li
            key={r.level}
            className={r.level === kyc.level ? s.levelCurrent : undefined}
            data-testid={`kyc-allows-${r.level}`}
          >
            <strong>{t('verification.levelName', { level: r.level })}</strong> {r.text}
          </li>
        ))}
      </ul>
      {kyc.tradeLevel === 0 ? <p className={s.muted}>{t('verification.noLevelNeeded')}</p> : null}
      <p data-testid="kyc-next-step">
        {step === 'done' || step === 'reviewing' ? (
          t(`verification.next.${step}`)
        ) : (
          <a href={`#${step}`} className={s.stepLink}>
            {t(`verification.next.${step}`)}
          </a>
        )}
      </p>
    </Card>
  );
}
