import type { OpsMember } from '@p2p/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/Button';
import { formatTime } from '../../../lib/format-time';
import { useOpsMe } from '../api/auth';
import { suspendMember, unsuspendMember, useOpsMembers } from '../api/members';
import { PagedTable } from '../components/PagedTable';
import { type RowAction, RowActions } from '../components/RowActions';
import { StatusBadge } from '../components/StatusBadge';
import { PageTitle } from '../components/Table';
import { reasonField, useConfirmAction } from '../hooks/use-confirm-action';
import { useCursorPager } from '../hooks/use-cursor-pager';
import s from '../ops.module.css';
import { opsPaths } from '../paths';

/**
 * /ops/members: search members (login ID, nickname, name or phone), suspend one with a reason (no more
 * login or trading, DECISIONS §8) or lift the suspension; links to the member's orders.
 */
export default function MembersPage() {
  const { t } = useTranslation(['ops']);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [input, setInput] = useState(q);
  const pager = useCursorPager(q);
  const members = useOpsMembers(q, pager.cursor);
  const { confirm, dialog } = useConfirmAction();
  const myId = useOpsMe().data?.id;

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setParams(input.trim() ? { q: input.trim() } : {}, { replace: true });
  };

  const details = (m: OpsMember) => [
    { label: t('ops:members.loginId'), value: `${m.loginId} (#${m.id})` },
    { label: t('ops:members.nickname'), value: m.nickname },
    { label: t('ops:members.name'), value: m.name },
    { label: t('ops:members.phone'), value: m.phoneE164 },
  ];
  const suspend = (m: OpsMember) =>
    confirm({
      title: t('ops:members.suspendTitle', { loginId: m.loginId }),
      details: details(m),
      note: t('ops:members.suspendNote'),
      confirmLabel: t('ops:members.suspend'),
      tone: 'danger',
      fields: [reasonField(t)],
      run: (v) =>
        suspendMember(m.id, v.reason ?? '').then(() => t('ops:members.suspended', { loginId: m.loginId })),
    });
  const unsuspend = (m: OpsMember) =>
    confirm({
      title: t('ops:members.unsuspendTitle', { loginId: m.loginId }),
      details: [...details(m), { label: t('ops:members.suspendedReason'), value: m.suspendedReason ?? '–' }],
      confirmLabel: t('ops:members.unsuspend'),
      tone: 'primary',
      fields: [{ name: 'reason', kind: 'optionalReason', label: t('ops:fields.optionalReason') }],
      run: (v) =>
        unsuspendMember(m.id, v.reason || undefined).then(() =>
          t('ops:members.unsuspended', { loginId: m.loginId }),
        ),
    });
  /** Suspend an active member, lift the suspension of a suspended one. */
  const suspensionAction = (m: OpsMember): RowAction =>
    m.status === 'ACTIVE'
      ? {
          label: t('ops:members.suspend'),
          testId: `suspend-${m.loginId}`,
          onClick: () => suspend(m),
          outline: true,
        }
      : { label: t('ops:members.unsuspend'), testId: `unsuspend-${m.loginId}`, onClick: () => unsuspend(m) };

  return (
    <>
      <PageTitle title={t('ops:members.title')} sub={t('ops:members.sub')}>
        <form className={s.inlineForm} onSubmit={onSearch}>
          <input
            className={s.searchInput}
            type="search"
            placeholder={t('ops:members.searchPlaceholder')}
            aria-label={t('ops:members.search')}
            value={input}
            maxLength={64}
            onChange={(e) => setInput(e.target.value)}
            data-testid="members-search"
          />
          <Button type="submit" size="small" variant="secondary" data-testid="members-search-submit">
            {t('ops:members.search')}
          </Button>
        </form>
      </PageTitle>
      <PagedTable
        testId="ops-members"
        columns={[
          t('ops:members.id'),
          t('ops:members.loginId'),
          t('ops:members.nickname'),
          t('ops:members.name'),
          t('ops:members.phone'),
          t('ops:members.role'),
          t('ops:members.status'),
          t('ops:members.joined'),
          t('ops:table.actions'),
        ]}
        list={members}
        pager={pager}
        row={(m) => (
          <tr key={m.id} data-testid={`member-row-${m.loginId}`}>
            <td className={s.num}>#{m.id}</td>
            <td>{m.loginId}</td>
            <td className={s.nowrap}>{m.nickname}</td>
            <td className={s.nowrap}>{m.name}</td>
            <td className={s.nowrap}>{m.phoneE164}</td>
            <td>{t(`ops:roles.${m.role}`)}</td>
            <td>
              <StatusBadge status={m.status} />
              {m.suspendedReason && <div className={s.sub}>{m.suspendedReason}</div>}
            </td>
            <td className={s.nowrap}>{formatTime(m.createdAt)}</td>
            <td>
              <RowActions actions={m.id === myId ? [] : [suspensionAction(m)]}>
                <Link className={s.smallLink} to={`${opsPaths.orders}?memberId=${m.id}`}>
                  {t('ops:members.orders')}
                </Link>
              </RowActions>
            </td>
          </tr>
        )}
      />
      {dialog}
    </>
  );
}
