/** The source of "now" for services and jobs; tests pass a controllable clock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to, for tests and simulations. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string) {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(instant: Date | string): void {
    this.#now = new Date(instant).getTime();
  }

  advanceMinutes(minutes: number): void {
    this.#now += minutes * 60_000;
  }
}
