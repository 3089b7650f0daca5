// Time as the bridge sees it; tests pass their own to move time without sleeping.
export type TimerHandle = unknown;

export interface Clock {
  /** Epoch milliseconds, UTC. */
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
