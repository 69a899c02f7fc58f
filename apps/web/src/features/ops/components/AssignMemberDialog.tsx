import type { OpsMember, OpsMemberDetail, UnmatchedPayment } from '@p2p/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import { errorText } from '../../../lib/errors';
import { getOpsMember } from '../api/chain';
import { opsMembersQueryOptions } from '../api/members';
import s from '../ops.module.css';

/** The member an unmatched payment is about to be credited to, with the wallet of its coin. */
export interface AssignTarget {
  member: OpsMemberDetail;
  wallet: OpsMemberDetail['wallets'][number];
}

/**
 * Picking a member for an unmatched payment: `pick(m)` loads the member (GET /ops/api/v1/members/:id) and hands
 * on their ACTIVE wallet of the payment's coin; without one, or on a failed load, `problem` says why. `busy` is
 * the id of the member being loaded.
 */
function useMemberPick(payment: UnmatchedPayment, onPick: (target: AssignTarget) => void) {
  const { t } = useTranslation(['ops', 'common']);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const pick = async (m: OpsMember) => {
    setBusy(m.id);
    setProblem(null);
    try {
      const member = await getOpsMember(m.id);
      const wallet = member.wallets.find((w) => w.coinCode === payment.coinCode && w.status === 'ACTIVE');
      if (!wallet) setProblem(t('ops:unmatched.noWallet', { loginId: m.loginId, coin: payment.coinCode }));
      else onPick({ member, wallet });
    } catch (err) {
      setProblem(errorText(err, 'ops:errors.generic', 'ops'));
    } finally {
      setBusy(null);
    }
  };
  return { problem, setProblem, busy, pick };
}

/** The members a search found, each with its "pick" button (all disabled while one is being loaded). */
function CandidateList(props: { list: OpsMember[]; busy: boolean; onPick: (m: OpsMember) => void }) {
  const { list, busy, onPick } = props;
  const { t } = useTranslation(['ops']);
  return (
    <ul className={s.pickList}>
      {list.map((m) => (
        <li key={m.id} className={s.pickItem} data-testid={`assign-candidate-${m.loginId}`}>
          <span>
            <strong>{m.loginId}</strong> · {m.nickname}
            <span className={s.sub}>
              #{m.id} · {m.name}
              {m.status !== 'ACTIVE' && ` · ${t(`ops:status.${m.status}`)}`}
            </span>
          </span>
          <Button
            size="small"
            onClick={() => onPick(m)}
            disabled={busy}
            data-testid={`assign-pick-${m.loginId}`}
          >
            {t('ops:unmatched.pick')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The first step of assigning an unmatched payment (DECISIONS §17): find the member by login ID or nickname
 * (GET /ops/api/v1/members?q=), pick one; their wallet of the payment's coin is looked up, and the pick goes on
 * to the confirmation only when they have an active one (the assignment credits that wallet).
 */
export function AssignMemberDialog(props: {
  payment: UnmatchedPayment;
  onPick: (target: AssignTarget) => void;
  onClose: () => void;
}) {
  const { payment, onPick, onClose } = props;
  const { t } = useTranslation(['ops', 'common']);
  const [input, setInput] = useState('');
  const [q, setQ] = useState('');
  const members = useQuery({ ...opsMembersQueryOptions(q, undefined), enabled: q !== '' });
  const { problem, setProblem, busy, pick } = useMemberPick(payment, onPick);

  const search = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    setQ(input.trim());
  };
  const list = q ? (members.data?.list ?? []) : [];

  return (
    <Modal open title={t('ops:unmatched.pickTitle', { id: payment.id })} onClose={onClose} closeMs={200}>
      <div className={s.dialogForm} data-testid="assign-picker">
        <p className={s.note}>
          {t('ops:unmatched.pickNote', { amount: payment.amount, coin: payment.coinCode })}
        </p>
        <form className={s.inlineForm} onSubmit={search}>
          <input
            className={s.searchInput}
            type="search"
            placeholder={t('ops:unmatched.pickPlaceholder')}
            aria-label={t('ops:unmatched.pickPlaceholder')}
            value={input}
            maxLength={64}
            onChange={(e) => setInput(e.target.value)}
            data-testid="assign-search"
          />
          <Button type="submit" size="small" variant="secondary" data-testid="assign-search-submit">
            {t('ops:members.search')}
          </Button>
        </form>
        {problem && (
          <p className={s.failure} role="alert" data-testid="assign-problem">
            {problem}
          </p>
        )}
        {q && members.isSuccess && list.length === 0 && <p className={s.muted}>{t('ops:table.empty')}</p>}
        {members.isError && (
          <p className={s.failure} role="alert">
            {errorText(members.error, 'ops:errors.generic', 'ops')}
          </p>
        )}
        <CandidateList list={list} busy={busy !== null} onPick={(m) => void pick(m)} />
      </div>
    </Modal>
  );
}
