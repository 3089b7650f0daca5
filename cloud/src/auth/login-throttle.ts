import type { Clock } from '../clock';

// Slows and then refuses repeated failed logins for one e-mail from one address. Kept in memory:
// a restart forgets it, which costs an attacker a restart; with several instances each keeps its
// own count, multiplying the allowance by the number of instances at most.

export interface LoginThrottleOptions {
  /** Failures answered at once; from the next one each answer waits `delayMs` times its rank. */
  freeFailures: number;
  /** Failures within `windowMs` after which the pair is refused for `lockMs`. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  delayMs: number;
  /** Most pairs remembered; the oldest is forgotten first. */
  maxEntries: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = {
  freeFailures: 3,
  maxFailures: 6,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  delayMs: 500,
  maxEntries: 10_000,
};

interface Attempts {
  failures: number;
  firstFailureAt: number;
  lockedUntil: number;
}

export type ThrottleDecision =
  { allowed: true; delayMs: number } | { allowed: false; retryAfterSeconds: number };

export class LoginThrottle {
  readonly #entries = new Map<string, Attempts>();

  constructor(
    private readonly clock: Clock,
    private readonly options: LoginThrottleOptions = DEFAULT_LOGIN_THROTTLE,
  ) {}

  static key(email: string, ip: string): string {
    return `${email.trim().toLowerCase()}|${ip}`;
  }

  /** Whether an attempt may proceed now, and how long its answer should wait. */
  check(key: string): ThrottleDecision {
    const now = this.clock.now().getTime();
    const entry = this.#current(key, now);
    if (!entry) return { allowed: true, delayMs: 0 };
    if (entry.lockedUntil > now) {
      return { allowed: false, retryAfterSeconds: Math.ceil((entry.lockedUntil - now) / 1000) };
    }
    const over = entry.failures - this.options.freeFailures;
    return { allowed: true, delayMs: over >= 0 ? (over + 1) * this.options.delayMs : 0 };
  }

  recordFailure(key: string): void {
    const now = this.clock.now().getTime();
    const entry = this.#current(key, now) ?? { failures: 0, firstFailureAt: now, lockedUntil: 0 };
    entry.failures += 1;
    if (entry.failures >= this.options.maxFailures) entry.lockedUntil = now + this.options.lockMs;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > this.options.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
  }

  recordSuccess(key: string): void {
    this.#entries.delete(key);
  }

  /** The pair's attempts, forgetting them once both the window and any lock have passed. */
  #current(key: string, now: number): Attempts | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.lockedUntil <= now && now - entry.firstFailureAt > this.options.windowMs) {
      this.#entries.delete(key);
      return undefined;
    }
    if (entry.lockedUntil !== 0 && entry.lockedUntil <= now) {
      // The lock has run out: start counting afresh.
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}
