import { useEffect, useRef, useState } from 'react';
import { secondsLeft } from '../protocol-rules';

/**
 * Seconds left until an order's deadline (DECISIONS §11), ticking every second from the server's instant
 * (not from when the screen opened, so a reload shows the same clock). `onDue` runs once when it reaches 0
 * (the screen refetches: the server settles the order on read).
 */
export function useSecondsLeft(deadlineIso: string | null, onDue?: () => void): number {
  const [left, setLeft] = useState(() => secondsLeft(deadlineIso, Date.now()));
  const due = useRef(onDue);
  due.current = onDue;
  useEffect(() => {
    let fired = false;
    const tick = () => {
      const next = secondsLeft(deadlineIso, Date.now());
      setLeft(next);
      if (next === 0 && deadlineIso && !fired) {
        fired = true;
        due.current?.();
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [deadlineIso]);
  return left;
}
