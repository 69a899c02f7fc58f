import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import { errorText } from '../../../lib/errors';
import { formatDateTime } from '../../../lib/format-time';
import { notify } from '../../../lib/toast';
import { useBlocks, useSetBlocked } from '../../trade/api/blocks';
import s from '../account.module.css';

/**
 * The block list of /account (DECISIONS §19): each blocked member by nickname with the date, and unblock.
 * Blocking itself is done from the member's listing or order screen.
 */
export function BlockedMembers() {
  const { t } = useTranslation('account');
  const blocks = useBlocks();
  const setBlocked = useSetBlocked();
  const items = blocks.data?.items ?? [];
  const unblock = (nickname: string) =>
    setBlocked.mutate(
      { nickname, blocked: false },
      {
        onSuccess: () => notify.success(t('trade:block.unblocked', { nickname })),
        onError: (err) => notify.error(errorText(err, 'common:errors.INTERNAL_ERROR')),
      },
    );
  return (
    <Card className={s.rows} data-testid="blocked-members">
      {items.length === 0 && (
        <p className={s.hint}>{blocks.isError ? t('blocks.failed') : t('blocks.empty')}</p>
      )}
      {items.map((b) => (
        <div className={s.row} key={b.nickname}>
          <span>
            <span className={s.strong}>{b.nickname}</span>
            <span className={s.sub}>{t('blocks.since', { date: formatDateTime(b.blockedAt) })}</span>
          </span>
          <Button
            variant="outline"
            size="small"
            disabled={setBlocked.isPending}
            onClick={() => unblock(b.nickname)}
            aria-label={t('blocks.unblockLabel', { nickname: b.nickname })}
          >
            {t('trade:block.unblock')}
          </Button>
        </div>
      ))}
      <p className={s.hint}>{t('blocks.hint', { max: blocks.data?.max ?? 100 })}</p>
    </Card>
  );
}
