import { MY_BOOKING_RESENDS_PER_HOUR } from '@deposito/protocol/api/my-booking';
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors';
import type { Store } from '../store/store';
import type { LimitsConfig } from './limits-config';

// What one anonymous client may do on the public booking API (issue 14): without these, nine holds
// took every locker of a location for as long as the holder renewed them, and hundreds of discount
// codes could be guessed at once. Counted per client address (see client-key.ts), in PostgreSQL when
// the store is, so a balancer spreading one client over several cloud processes changes nothing.

const HOLD_WINDOW_SECONDS = 60;
/** A hold's lifetime: lockers counted against a client stay counted while its holds could live. */
const HELD_LOCKERS_WINDOW_SECONDS = 15 * 60;
const DISCOUNT_WINDOW_SECONDS = 10 * 60;

function isLimiterAnswer(value: unknown): value is RateLimiterRes {
  return typeof value === 'object' && value !== null && 'msBeforeNext' in value;
}

/** Takes `points` from the client's allowance, or throws `code` (429) with the seconds to wait. */
async function consumeOrRefuse(
  limiter: RateLimiterAbstract | null,
  key: string,
  points: number,
  code: 'request/rate_limited' | 'booking/too_many_lockers_held',
): Promise<void> {
  if (!limiter) return;
  try {
    await limiter.consume(key, points);
  } catch (error) {
    if (!isLimiterAnswer(error)) throw error;
    throw new AppError(code, undefined, {
      retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
    });
  }
}

/** The limits of one app (its store and configuration): built once by composition.ts, shared by its areas. */
export class VisitorLimits {
  readonly #holdRequests: RateLimiterAbstract | null;
  readonly #heldLockers: RateLimiterAbstract | null;
  readonly #discountChecks: RateLimiterAbstract | null;
  readonly #resends: RateLimiterAbstract;

  constructor(store: Store, config: LimitsConfig) {
    const limiter = (keyPrefix: string, points: number, duration: number) =>
      points > 0 ? store.rateLimiter({ keyPrefix, points, duration }) : null;
    this.#holdRequests = limiter('holds', config.holdsPerMinute, HOLD_WINDOW_SECONDS);
    this.#heldLockers = limiter('held-lockers', config.heldLockers, HELD_LOCKERS_WINDOW_SECONDS);
    this.#discountChecks = limiter('discount-checks', config.discountChecks, DISCOUNT_WINDOW_SECONDS);
    // Per booking, whoever asks and whatever RATE_LIMITS says: it guards the visitor's own inbox
    // (a forwarded link must not become a way to flood it) and our sender's reputation.
    this.#resends = store.rateLimiter({
      keyPrefix: 'my-booking-resends',
      points: MY_BOOKING_RESENDS_PER_HOUR,
      duration: 60 * 60,
    });
  }

  /**
   * Runs a hold for `client` if it may make one more and hold `lockers` more: 429
   * `request/rate_limited` past the requests per minute, 429 `booking/too_many_lockers_held` past
   * the lockers per hold lifetime. A hold that fails gives its lockers back to the allowance.
   */
  async hold<T>(client: string, lockers: number, run: () => Promise<T>): Promise<T> {
    await consumeOrRefuse(this.#holdRequests, client, 1, 'request/rate_limited');
    await consumeOrRefuse(this.#heldLockers, client, lockers, 'booking/too_many_lockers_held');
    try {
      return await run();
    } catch (error) {
      await this.#heldLockers?.reward(client, lockers).catch(() => undefined);
      throw error;
    }
  }

  /** One resent confirmation of a booking, or 429 `request/rate_limited` past its hourly allowance. */
  async resend(transactionId: string): Promise<void> {
    await consumeOrRefuse(this.#resends, transactionId, 1, 'request/rate_limited');
  }

  /** One discount check for `client`, or 429 `request/rate_limited` past its allowance. */
  async discountCheck(client: string): Promise<void> {
    await consumeOrRefuse(this.#discountChecks, client, 1, 'request/rate_limited');
  }
}
