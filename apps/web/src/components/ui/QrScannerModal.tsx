import { LIMITS } from '@p2p/contract/limits.ts';
import type QrScannerType from 'qr-scanner';
import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useScrollLock } from './useScrollLock';
import w from './widgets.module.css';

interface Props {
  open: boolean;
  onClose: () => void;
  /** Called once with the decoded text; the modal then closes. */
  onScan: (text: string) => void;
}

const CLOSE_MS = 300;
const MAX_SCANS_PER_SECOND = 25;

/** The camera texts of SPEC §8, and `timeout`: no code within the 10 s decode timeout of SPEC §9. */
export type CameraError = 'notFound' | 'denied' | 'startFailed' | 'timeout';

/** Maps a qr-scanner / getUserMedia failure to one of the three camera texts of SPEC §8. */
export function cameraErrorOf(err: unknown): CameraError {
  const name = err instanceof Error || err instanceof DOMException ? err.name : '';
  const text = typeof err === 'string' ? err : err instanceof Error ? err.message : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || /permission|denied/i.test(text))
    return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || /camera not found/i.test(text)) {
    return 'notFound';
  }
  return 'startFailed';
}

/** The scan region of SPEC §9: a centred square of two thirds of the video's smaller side. */
export function scanRegionOf(width: number, height: number) {
  const size = Math.round((2 / 3) * Math.min(width, height));
  return { x: Math.round((width - size) / 2), y: Math.round((height - size) / 2), width: size, height: size };
}

/**
 * The camera view inside its corner frame: starts the rear camera when it mounts and stops it when it goes
 * (SPEC §4). One mount is one attempt: the modal gives it a new key to try again. `onCode` is called once.
 */
function Camera({
  onCode,
  onError,
}: {
  onCode: (text: string) => void;
  onError: (error: CameraError | null) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (!video.current) return;
    const el = video.current;
    let scanner: QrScannerType | null = null;
    let cancelled = false;
    let scanned = false;
    let giveUp: number | undefined;
    onError(null);
    void (async () => {
      try {
        const { default: QrScanner } = await import('qr-scanner');
        if (cancelled) return;
        scanner = new QrScanner(
          el,
          (result) => {
            if (scanned) return;
            scanned = true;
            window.clearTimeout(giveUp);
            scanner?.stop();
            onCode(result.data);
          },
          {
            preferredCamera: 'environment',
            maxScansPerSecond: MAX_SCANS_PER_SECOND,
            returnDetailedScanResult: true,
            calculateScanRegion: (v) => scanRegionOf(v.videoWidth, v.videoHeight),
          },
        );
        await scanner.start();
        if (cancelled) return;
        giveUp = window.setTimeout(() => {
          if (scanned) return;
          scanner?.stop();
          onError('timeout');
        }, LIMITS.qrDecodeTimeoutMs);
      } catch (err) {
        if (!cancelled) onError(cameraErrorOf(err));
      }
    })();
    return () => {
      cancelled = true;
      window.clearTimeout(giveUp);
      // The camera must not stay on after the modal is gone (SPEC §4).
      scanner?.stop();
      scanner?.destroy();
    };
  }, [onCode, onError]);

  return (
    <div className={w.cameraBox}>
      <video ref={video} className={w.video} muted playsInline />
      <div className={w.frame} aria-hidden="true">
        <span className={w.cornerTl} />
        <span className={w.cornerTr} />
        <span className={w.cornerBl} />
        <span className={w.cornerBr} />
      </div>
    </div>
  );
}

/**
 * The QR scan screen (SPEC §2, §4, §9): a slide-up modal titled QR코드 스캔하기 with a back button and a
 * camera view inside a corner frame. Rear camera preferred, 25 scans/s, scan region two thirds of the
 * smaller video side; the camera stops on close; page scrolling is locked while open; 300 ms close.
 * Without a code for 10 s (SPEC §9) the camera stops and the modal says so, with a retry.
 */
export function QrScannerModal({ open, onClose, onScan }: Props) {
  const { t } = useTranslation('trade');
  const [closing, setClosing] = useState(false);
  const [error, setError] = useState<CameraError | null>(null);
  // Bumped by the retry button: the camera's key, so a new camera starts.
  const [attempt, setAttempt] = useState(0);
  const timer = useRef<number | undefined>(undefined);
  // Callers pass inline callbacks: keep the latest in refs so the camera is not restarted on each render.
  const handlers = useRef({ onClose, onScan });
  handlers.current = { onClose, onScan };
  useScrollLock(open);

  const close = useCallback(() => {
    if (timer.current !== undefined) return;
    setClosing(true);
    timer.current = window.setTimeout(() => {
      timer.current = undefined;
      setClosing(false);
      handlers.current.onClose();
    }, CLOSE_MS);
  }, []);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  // The camera's decoded text: handed to the caller, then the modal closes.
  const onCode = useCallback(
    (text: string) => {
      handlers.current.onScan(text);
      close();
    },
    [close],
  );

  if (!open) return null;
  const style = { '--modal-ms': `${CLOSE_MS}ms` } as CSSProperties;
  return (
    <div className={`${w.scanner} ${closing ? w.scannerClosing : ''}`} style={style}>
      <div
        className={w.scannerSheet}
        role="dialog"
        aria-modal="true"
        aria-labelledby="qr-title"
        data-testid="qr-modal"
      >
        <div className={w.scannerHeader}>
          <button
            type="button"
            className={w.scannerBack}
            onClick={close}
            aria-label={t('scanner.back')}
            data-testid="qr-back"
          >
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
              <path
                d="M15 5l-7 7 7 7"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>
          <h2 id="qr-title" className={w.scannerTitle}>
            {t('scanner.title')}
          </h2>
          <span className={w.scannerSpacer} />
        </div>
        <p className={w.scannerHint}>{t('scanner.instruction')}</p>
        <Camera key={attempt} onCode={onCode} onError={setError} />
        <div className={w.scannerError} role={error ? 'alert' : undefined} data-testid="qr-error">
          {error ? t(`scanner.errors.${error}`) : ''}
        </div>
        {(error === 'timeout' || error === 'startFailed') && (
          <button
            type="button"
            className={w.scannerRetry}
            onClick={() => setAttempt((n) => n + 1)}
            data-testid="qr-retry"
          >
            {t('scanner.retry')}
          </button>
        )}
      </div>
    </div>
  );
}
