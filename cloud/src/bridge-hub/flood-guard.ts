import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from 'pino';

// A bridge holds a valid token, but it may be broken or in the wrong hands: it must not be able to
// fill the store or the logs. Per socket, its messages are read at a bounded rate (reading pauses,
// nothing is lost: the bridge resends what was not confirmed), too many invalid frames close it,
// events for lockers the location does not have are confirmed but not stored, and each burst of
// such trouble is one log line, not one per frame.

export interface FloodLimits {
  /** Messages read from one socket per second; past it, reading pauses until the next second. */
  messagesPerSecond: number;
  /** Invalid frames one socket may send in a minute; past it, the socket is closed (1008). */
  invalidPerMinute: number;
  /** How long a burst of trouble is gathered before its one log line. */
  burstLogMs: number;
}

/**
 * Generous for a real bridge: replaying a full offline buffer sends a few thousand items a second,
 * and a healthy one never sends an invalid frame.
 */
export const DEFAULT_FLOOD_LIMITS: FloodLimits = {
  messagesPerSecond: 5_000,
  invalidPerMinute: 50,
  burstLogMs: 10_000,
};

/** What one socket did wrong since its burst's log line was last written. */
interface Burst {
  invalid: number;
  unknownLockers: number;
  throttled: number;
  example: string | null;
  timer: NodeJS.Timeout | null;
}

export class BridgeFloodGuard {
  private readonly messages: RateLimiterMemory;
  private readonly invalidFrames: RateLimiterMemory;
  private readonly bursts = new Map<string, Burst & { locationKey: string }>();

  constructor(
    private readonly logger: Logger,
    private readonly limits: FloodLimits = DEFAULT_FLOOD_LIMITS,
  ) {
    this.messages = new RateLimiterMemory({ points: limits.messagesPerSecond, duration: 1 });
    this.invalidFrames = new RateLimiterMemory({ points: limits.invalidPerMinute, duration: 60 });
  }

  /**
   * Counts a message from the socket: 0 while it is within its rate, else how long to wait (the
   * caller pauses reading and holds the message until then).
   */
  async admit(socketId: string, locationKey: string): Promise<number> {
    try {
      await this.messages.consume(socketId);
      return 0;
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      this.burst(socketId, locationKey).throttled += 1;
      return Math.max(1, refused.msBeforeNext);
    }
  }

  /** An invalid frame; true when the socket has sent too many and must be closed. */
  async invalid(socketId: string, locationKey: string, problem: string): Promise<boolean> {
    const burst = this.burst(socketId, locationKey);
    burst.invalid += 1;
    burst.example ??= problem.slice(0, 200);
    try {
      await this.invalidFrames.consume(socketId);
      return false;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return true;
      throw refused;
    }
  }

  /** An event or snapshot entry for a locker the location does not have (not stored). */
  unknownLocker(socketId: string, locationKey: string, lockerId: number): void {
    const burst = this.burst(socketId, locationKey);
    burst.unknownLockers += 1;
    burst.example ??= `locker ${lockerId} does not exist at ${locationKey}`;
  }

  /** The socket closed: its burst, if any, is logged now. */
  forget(socketId: string): void {
    this.flush(socketId);
    void this.messages.delete(socketId);
    void this.invalidFrames.delete(socketId);
  }

  private burst(socketId: string, locationKey: string): Burst {
    let burst = this.bursts.get(socketId);
    if (!burst) {
      burst = { locationKey, invalid: 0, unknownLockers: 0, throttled: 0, example: null, timer: null };
      burst.timer = setTimeout(() => this.flush(socketId), this.limits.burstLogMs);
      burst.timer.unref();
      this.bursts.set(socketId, burst);
    }
    return burst;
  }

  private flush(socketId: string): void {
    const burst = this.bursts.get(socketId);
    if (!burst) return;
    this.bursts.delete(socketId);
    if (burst.timer) clearTimeout(burst.timer);
    this.logger.warn(
      {
        location: burst.locationKey,
        invalidMessages: burst.invalid,
        unknownLockerItems: burst.unknownLockers,
        throttledPauses: burst.throttled,
        example: burst.example,
      },
      'bridge burst: invalid frames refused, items for unknown lockers ignored, or reading slowed',
    );
  }
}
