import { useTranslation } from 'react-i18next';
import { Skeleton, SkeletonCard } from '../../../components/ui/Skeleton';

/**
 * Heights (px at 390 px, en) of the blocks of an order that waits for its next step, the usual reason to
 * open it: status panel, the side's instruction, the step tracker, the chat and the order card, measured in
 * e2e/detail-skeleton.test.ts; the counterpart card is drawn with its rows.
 */
/** The two stacked 44 px buttons under the instruction (8 px apart). */
const BUTTONS = 96;

const BLOCKS = {
  buyer: { heights: [180, 387, BUTTONS, 346, 402], rows: 4 },
  seller: { heights: [180, 274, BUTTONS, 259, 402], rows: 6 },
  release: { heights: [180, 520], rows: 0 },
} as const;

/**
 * What a trade detail screen shows while it loads: the shapes of its cards instead of a bare
 * 로딩 중..., the same heights, so nothing moves when the order arrives. `buyer` / `seller`: an order on
 * /view_details (purchase, sell history); `listing`: the registration card; `release`: status panel and the
 * release form (/proceed).
 */
export function DetailSkeleton({ kind }: { kind: 'buyer' | 'seller' | 'listing' | 'release' }) {
  const { t } = useTranslation('common');
  return (
    <div role="status" aria-busy="true" data-testid="detail-skeleton" style={{ display: 'contents' }}>
      <span className="visually-hidden">{t('loading')}</span>
      {kind === 'listing' ? (
        <SkeletonCard rows={9} />
      ) : (
        <>
          {BLOCKS[kind].heights.map((h) =>
            // the heights of one kind differ, so each names its block
            h === BUTTONS ? (
              <div key={h} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
                <Skeleton height={44} />
                <Skeleton height={44} />
              </div>
            ) : (
              <SkeletonCard key={h} height={h} />
            ),
          )}
          {BLOCKS[kind].rows > 0 && <SkeletonCard rows={BLOCKS[kind].rows} />}
        </>
      )}
    </div>
  );
}
