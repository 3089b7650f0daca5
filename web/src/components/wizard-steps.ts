import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';

// What the daytime flow's and the night wizard's reducers (booking/daytime-state.ts,
// night/night-state.ts) share: the actions they take alike and the way back through their steps.

/** The actions both wizards take alike between the day and the quantity. */
export type SharedWizardAction =
  | { type: 'timeChosen'; time: string }
  | { type: 'sizeChosen'; size: LockerSize }
  /** One step back, keeping what was chosen before that step. */
  | { type: 'back' };

/** The chosen duration and the stay it makes; each wizard says which locker counts come with it. */
export interface DurationConfirmed {
  type: 'durationConfirmed';
  duration: Duration;
  startTimeIso: string;
  endTimeIso: string;
}

/**
 * The browser's Back to an earlier step: as many single steps back (`back`) as that takes, never
 * past the first of `steps` and never more than there are steps.
 */
export function stepBackTo<State, Step>(
  state: State,
  target: Step,
  steps: readonly Step[],
  stepOf: (state: State) => Step,
  back: (state: State) => State,
): State {
  let next = state;
  for (let taken = 0; taken < steps.length; taken += 1) {
    if (stepOf(next) === target || stepOf(next) === steps[0]) break;
    next = back(next);
  }
  return next;
}
