import { useCallback, useEffect, useRef, useState } from 'react';

/** A seconds countdown (SMS code windows, SPEC §9): start(sec), stop(); `remaining` reaches 0 and stops. */
export function useCountdown() {
  const [remaining, setRemaining] = useState(0);
  const deadline = useRef(0);
  const timer = useRef<number | undefined>(undefined);

  const stop = useCallback(() => {
    window.clearInterval(timer.current);
    timer.current = undefined;
    setRemaining(0);
  }, []);

  const start = useCallback((seconds: number) => {
    window.clearInterval(timer.current);
    deadline.current = Date.now() + seconds * 1000;
    setRemaining(seconds);
    timer.current = window.setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline.current - Date.now()) / 1000));
      setRemaining(left);
      if (left === 0) {
        window.clearInterval(timer.current);
        timer.current = undefined;
      }
    }, 250);
  }, []);

  useEffect(() => () => window.clearInterval(timer.current), []);
  return { remaining, running: remaining > 0, start, stop };
}

/** 125 -> "02:05". */
export function formatMmSs(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
