import { createHash } from 'node:crypto';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors';
import type { LoginLimitSettings } from '../limits/limits-config';
import type { Store } from '../store/store';

// Failed administrator logins, counted in the store's limiter (PostgreSQL: shared by every cloud
// process; SQLite: this process's memory). Only failures count; three counts, each answering a
// different attack without handing an attacker a way to lock an operator out for good:
//
// - account + address (tight, 15 min): guessing one account's password from one place. After
//   3 failures each answer waits longer; after LIMIT_LOGIN_FAILURES_ACCOUNT_ADDRESS the pair is
//   refused, right password included, until its 15 minutes end. Other addresses are untouched.
// - address (any accounts, 1 h): one place trying many accounts (password spraying).
// - account (any addresses, 1 h, looser): guessing spread over many addresses. Once over, the
//   account is refused until the hour's count lapses, but only to addresses it has not logged in
//   from within three weeks: an operator at their usual address still logs in, so an attacker flooding
//   the account can block newcomers (another computer, a new office) but never its operators.
//   Behind a balancer this needs TRUST_PROXY, or every client shares the balancer's address.

const PAIR_WINDOW_SECONDS = 15 * 60;
const ADDRESS_WINDOW_SECONDS = 60 * 60;
const ACCOUNT_WINDOW_SECONDS = 60 * 60;
/** Three weeks: within a 32-bit timer of the in-memory store, and longer than any holiday. */
const KNOWN_ADDRESS_SECONDS = 21 * 24 * 60 * 60;
/** Failures of a pair answered at once; from the next one each answer waits `DELAY_MS` times its rank. */
const FREE_FAILURES = 3;
const DELAY_MS = 500;

export const DEFAULT_LOGIN_LIMITS: LoginLimitSettings = {
  accountAddressFailures: 6,
  accountFailures: 30,
  addressFailures: 100,
};

/** An account's key: a digest, so the table never lists e-mails and keys stay short. */
function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 24);
}

function retryAfter(msBeforeNext: number): AppError {
  return new AppError('auth/too_many_attempts', undefined, {
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });
}

export class LoginLimits {
  readonly #pair: RateLimiterAbstract | null;
  readonly #address: RateLimiterAbstract | null;
  readonly #account: RateLimiterAbstract | null;
  readonly #known: RateLimiterAbstract;

  constructor(store: Store, settings: LoginLimitSettings = DEFAULT_LOGIN_LIMITS) {
    const limiter = (keyPrefix: string, points: number, duration: number) =>
      points > 0 ? store.rateLimiter({ keyPrefix, points, duration }) : null;
    this.#pair = limiter('login-pair', settings.accountAddressFailures, PAIR_WINDOW_SECONDS);
    this.#address = limiter('login-address', settings.addressFailures, ADDRESS_WINDOW_SECONDS);
    this.#account = limiter('login-account', settings.accountFailures, ACCOUNT_WINDOW_SECONDS);
    this.#known = store.rateLimiter({ keyPrefix: 'login-known', points: 1, duration: KNOWN_ADDRESS_SECONDS });
  }

  /**
   * Whether an attempt may be checked now (throws 429 `auth/too_many_attempts` with the seconds to
   * wait otherwise), and how long its answer should wait first.
   */
  async check(email: string, address: string): Promise<{ delayMs: number }> {
    const account = accountKey(email);
    const pairKey = `${account}|${address}`;
    const [pair, byAddress, byAccount] = await Promise.all([
      this.#pair?.get(pairKey),
      this.#address?.get(address),
      this.#account?.get(account),
    ]);
    if (pair && this.#pair && pair.consumedPoints >= this.#pair.points) throw retryAfter(pair.msBeforeNext);
    if (byAddress && this.#address && byAddress.consumedPoints >= this.#address.points) {
      throw retryAfter(byAddress.msBeforeNext);
    }
    if (byAccount && this.#account && byAccount.consumedPoints >= this.#account.points) {
      if (!(await this.#known.get(pairKey))) throw retryAfter(byAccount.msBeforeNext);
    }
    const over = (pair?.consumedPoints ?? 0) - FREE_FAILURES;
    return { delayMs: over >= 0 ? (over + 1) * DELAY_MS : 0 };
  }

  async recordFailure(email: string, address: string): Promise<void> {
    const account = accountKey(email);
    await Promise.all([
      this.#pair?.penalty(`${account}|${address}`, 1),
      this.#address?.penalty(address, 1),
      this.#account?.penalty(account, 1),
    ]);
  }

  /** The pair starts afresh, and the address is one this account logs in from (for three weeks). */
  async recordSuccess(email: string, address: string): Promise<void> {
    const pairKey = `${accountKey(email)}|${address}`;
    await Promise.all([this.#pair?.delete(pairKey), this.#known.set(pairKey, 1, KNOWN_ADDRESS_SECONDS)]);
  }
}
