import s from './ui.module.css';

/** Covers the screen while something blocking happens (e.g. the token check of SPEC §2). */
export function FullScreenLoader({ message }: { message: string }) {
  return (
    <div className={s.loaderScreen} role="status" aria-live="polite" data-testid="fullscreen-loader">
      <div className={s.spinner} />
      <span>{message}</span>
    </div>
  );
}
