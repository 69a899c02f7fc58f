import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companyQueryOptions } from './get-company';
import l from './layout.module.css';

const FIELDS = ['name', 'ceo', 'regNo', 'vaspNo', 'support'] as const;

/**
 * The operator's business details in the footer: Korean users look for 상호, 대표,
 * 사업자등록번호, 가상자산사업자 신고번호 and 고객센터 before sending money. Read from GET /api/v1/company
 * (configured on the server); unset lines are left out, and nothing shows while it loads or if it fails.
 */
export function CompanyDetails() {
  const { t } = useTranslation('home');
  const q = useQuery(companyQueryOptions());
  const rows = FIELDS.flatMap((k) => (q.data?.[k] ? [[k, q.data[k]] as const] : []));
  if (rows.length === 0) return null;
  return (
    <section className={l.company} aria-label={t('footer.companyTitle')} data-testid="company-details">
      <dl className={l.companyList}>
        {rows.map(([k, v]) => (
          <div key={k} className={l.companyRow}>
            <dt>{t(`footer.company.${k}`)}</dt>
            <dd data-testid={`company-${k}`}>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
