import { Card } from './Card';
import w from './widgets.module.css';

/** A grey placeholder of the given size (theme.css `.skeleton`); hidden from assistive technology. */
export function Skeleton({ width = '100%', height }: { width?: number | string; height: number }) {
  return <span className="skeleton" style={{ width, height }} aria-hidden="true" />;
}

/**
 * A card-shaped placeholder built from the same boxes as the card it stands for (Card, the section title's
 * line, the key-value rows' padding and line height), so the content replaces it without moving the screen.
 * `height` instead of rows: a fixed block of that outer height (the card's 16 px padding included).
 */
export function SkeletonCard({
  title = true,
  rows = 0,
  height,
}: {
  title?: boolean;
  rows?: number;
  height?: number;
}) {
  return (
    <Card aria-hidden="true" data-testid="skeleton-card">
      {height !== undefined ? (
        <div className={w.skeletonLines} style={{ height: Math.max(0, height - 32) }}>
          <Skeleton width="45%" height={20} />
          {Array.from({ length: Math.floor((height - 32 - 20) / 28) }, (_, i) => i).map((i) => (
            <Skeleton key={i} width={i % 3 === 2 ? '60%' : '100%'} height={16} />
          ))}
        </div>
      ) : (
        <>
          {title && (
            <span className={w.skeletonTitle}>
              <Skeleton width="45%" height={20} />
            </span>
          )}
          <div className={w.kvList}>
            {Array.from({ length: rows }, (_, i) => i).map((i) => (
              <div key={i} className={w.kvRow}>
                <Skeleton width={72} height={21} />
                <Skeleton width={i % 2 ? 120 : 96} height={21} />
              </div>
            ))}
          </div>
        </>
      )}
    </Card>
  );
}
