import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClock } from './clock';

/**
 * Seconds left until `deadline` (epoch ms), read from the clock at every tick rather than counted
 * down tick by tick: a phone that sleeps, or a tab the browser throttles, shows the real time left.
 * Null when there is no deadline.
 */
export function useSecondsLeft(deadline: number | null): number | null {
  const clock = useClock();
  const left = () =>
    deadline === null ? null : Math.max(0, Math.ceil((deadline - clock().getTime()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (deadline === null) return;
    const timer = window.setInterval(() => setSeconds(left()), 1000);
    return () => window.clearInterval(timer);
    // `left` reads only deadline and clock.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deadline, clock]);
  return seconds;
}

/** "Tempo rimasto per pagare: 14:32", beside the Pay button, announced to screen readers only on request. */
export function PaymentCountdown({ secondsLeft }: { secondsLeft: number }) {
  const { t } = useTranslation();
  const minutes = Math.floor(secondsLeft / 60);
  const seconds = String(secondsLeft % 60).padStart(2, '0');
  return (
    <p className="field-hint payment-countdown" aria-live="off">
      {t('night.countdown')}{' '}
      <span className="countdown" role="timer" aria-label={t('night.countdownLabel', { minutes, seconds })}>
        {minutes}:{seconds}
      </span>
    </p>
  );
}
