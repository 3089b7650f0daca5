import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { LoginThrottle } from './login-throttle';

const options = {
  freeFailures: 2,
  maxFailures: 4,
  windowMs: 10 * 60_000,
  lockMs: 15 * 60_000,
  delayMs: 100,
  maxEntries: 3,
};

describe('LoginThrottle', () => {
  it('answers at once, then slower, then refuses until the lock runs out', () => {
    const clock = new ManualClock('2026-03-27T08:00:00Z');
    const throttle = new LoginThrottle(clock, options);
    const key = LoginThrottle.key(' Ops@Deposito.test ', '10.0.0.1');
    expect(key).toBe('ops@deposito.test|10.0.0.1');
    const decisions = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      decisions.push(throttle.check(key));
      throttle.recordFailure(key);
    }
    expect(decisions).toEqual([
      { allowed: true, delayMs: 0 },
      { allowed: true, delayMs: 0 },
      { allowed: true, delayMs: 100 },
      { allowed: true, delayMs: 200 },
    ]);
    expect(throttle.check(key)).toEqual({ allowed: false, retryAfterSeconds: 900 });
    clock.advanceMinutes(14);
    expect(throttle.check(key)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.advanceMinutes(1);
    expect(throttle.check(key)).toEqual({ allowed: true, delayMs: 0 });
  });

  it('forgets failures after the window and on success, and keeps pairs apart', () => {
    const clock = new ManualClock('2026-03-27T08:00:00Z');
    const throttle = new LoginThrottle(clock, options);
    const a = LoginThrottle.key('a@x.it', '1.1.1.1');
    const b = LoginThrottle.key('a@x.it', '2.2.2.2');
    for (let i = 0; i < 3; i += 1) throttle.recordFailure(a);
    expect(throttle.check(b)).toEqual({ allowed: true, delayMs: 0 });
    clock.advanceMinutes(11);
    expect(throttle.check(a)).toEqual({ allowed: true, delayMs: 0 });
    for (let i = 0; i < 3; i += 1) throttle.recordFailure(a);
    throttle.recordSuccess(a);
    expect(throttle.check(a)).toEqual({ allowed: true, delayMs: 0 });
  });

  it('remembers a bounded number of pairs', () => {
    const throttle = new LoginThrottle(new ManualClock('2026-03-27T08:00:00Z'), options);
    for (let i = 0; i < 4; i += 1) for (let j = 0; j < 4; j += 1) throttle.recordFailure(`k${i}`);
    expect(throttle.check('k0')).toEqual({ allowed: true, delayMs: 0 });
    expect(throttle.check('k3').allowed).toBe(false);
  });
});
