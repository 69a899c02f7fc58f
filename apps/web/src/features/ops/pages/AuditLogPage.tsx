import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/format-time';
import { AUDIT_TARGET_TYPES, type AuditTargetType, useAuditLog } from '../api/audit-log';
import { FilterTabs } from '../components/FilterTabs';
import { PagedTable } from '../components/PagedTable';
import { Mono, PageTitle } from '../components/Table';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';

const ALL = 'ALL';

/** Audit data as "key: value" pairs on one line (numbers and strings as they are, objects as JSON). */
function dataText(data: Record<string, unknown> | null): string {
  if (!data) return '';
  return Object.entries(data)
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' · ');
}

/** /ops/audit-log: every operator action (who, when, what, why), newest first, page by page. */
export default function AuditLogPage() {
  const { t } = useTranslation(['ops']);
  const [target, setTarget] = useState<AuditTargetType | undefined>(undefined);
  const pager = useCursorPager(target ?? ALL);
  const log = useAuditLog(target, pager.cursor);
  const options = [ALL, ...AUDIT_TARGET_TYPES].map((v) => ({ value: v, label: t(`ops:audit.targets.${v}`) }));
  return (
    <>
      <PageTitle title={t('ops:audit.title')} sub={t('ops:audit.sub')}>
        <FilterTabs
          label={t('ops:audit.target')}
          options={options}
          value={target ?? ALL}
          onChange={(v) => setTarget(v === ALL ? undefined : (v as AuditTargetType))}
        />
      </PageTitle>
      <PagedTable
        testId="ops-audit-log"
        columns={[
          t('ops:audit.time'),
          t('ops:audit.operator'),
          t('ops:audit.action'),
          t('ops:audit.target'),
          t('ops:audit.reason'),
          t('ops:audit.data'),
        ]}
        list={log}
        pager={pager}
        row={(e) => (
          <tr key={e.id} data-testid="audit-row">
            <td className={s.nowrap}>{formatTime(e.createdAt)}</td>
            <td>{e.operatorLoginId}</td>
            <td className={s.nowrap}>
              <code className={s.code}>{e.action}</code>
            </td>
            <td className={s.nowrap}>
              {t(`ops:audit.targets.${e.targetType}`, { defaultValue: e.targetType })} #{e.targetId}
            </td>
            <td>{e.reason ?? ''}</td>
            <td className={s.dataCell}>
              <Mono>{dataText(e.data)}</Mono>
            </td>
          </tr>
        )}
      />
    </>
  );
}
