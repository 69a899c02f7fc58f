import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { ConfirmModal } from '../../../components/ui/ConfirmModal';
import { notifyRefusal } from '../../../lib/refusal';
import { notify } from '../../../lib/toast';
import { useBlocks, useSetBlocked } from '../api/blocks';

/**
 * Block or unblock a counterpart by nickname (DECISIONS §19), after a confirm that says what it does: their
 * listings leave your trade list and neither of you can buy from the other. Shows "unblock" when already blocked.
 */
export function BlockButton({ nickname }: { nickname: string }) {
  const { t } = useTranslation('trade');
  const blocks = useBlocks();
  const setBlocked = useSetBlocked();
  const [asking, setAsking] = useState(false);
  const blocked =
    blocks.data?.items.some((b) => b.nickname.toLowerCase() === nickname.toLowerCase()) ?? false;
  const confirm = () => {
    setAsking(false);
    setBlocked.mutate(
      { nickname, blocked: !blocked },
      {
        onSuccess: () => notify.success(t(blocked ? 'block.unblocked' : 'block.blocked', { nickname })),
        onError: (err) => notifyRefusal(err, 'common:errors.INTERNAL_ERROR', 'trade'),
      },
    );
  };
  return (
    <>
      <Button
        variant="outline"
        size="small"
        disabled={!blocks.isSuccess || setBlocked.isPending}
        onClick={() => setAsking(true)}
        data-testid={blocked ? 'unblock-member' : 'block-member'}
      >
        {t(blocked ? 'block.unblock' : 'block.block')}
      </Button>
      <ConfirmModal
        open={asking}
        title={t(blocked ? 'block.unblockTitle' : 'block.title', { nickname })}
        message={t(blocked ? 'block.unblockMessage' : 'block.message')}
        confirmLabel={t(blocked ? 'block.unblock' : 'block.block')}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
