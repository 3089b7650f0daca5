import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';

// What the daytime flow's and the night wizard's reducers (booking/daytime-state.ts,
// night/night-state.ts) share: the choices they keep alike, the actions they take alike and the way
// back through their steps.

/** The visitor's choices, kept alike by both wizards between the day and the quantity. */
export interface WizardChoices {
  /** The day chosen in the calendar, yyyy-MM-dd at the location. */
  date: string | null;
  /** The start time chosen, HH:mm at the location. */
  time: string | null;
  duration: Duration | null;
  startTimeIso: string | null;
  endTimeIso: string | null;
  /** Free lockers per size for the chosen period. */
  counts: SizeCounts | null;
  size: LockerSize | null;
  quantity: number | null;
}

/** Nothing chosen yet. */
export const NO_CHOICES: WizardChoices = {
  date: null,
  time: null,
  duration: null,
  startTimeIso: null,
  endTimeIso: null,
  counts: null,
  size: null,
  quantity: null,
};

/** The chosen duration and the stay it makes. */
export interface DurationConfirmed {
  type: 'durationConfirmed';
  duration: Duration;
  startTimeIso: string;
  endTimeIso: string;
}

/** The choices after a choice both wizards take alike (each wizard moves on to its own next step). */
export const chosen = {
  /** A new start: a duration chosen for another start no longer holds. */
  time: <S extends WizardChoices>(state: S, time: string): S => ({
    ...state,
    time,
    duration: null,
    endTimeIso: null,
  }),
  /** The confirmed duration, the stay it makes and, when they came with it, its counts. */
  stay: <S extends WizardChoices>(state: S, action: DurationConfirmed & { counts?: SizeCounts }): S => ({
    ...state,
    duration: action.duration,
    startTimeIso: action.startTimeIso,
    endTimeIso: action.endTimeIso,
    counts: action.counts ?? state.counts,
  }),
};

/** The browser's Back to an earlier step: as many steps back as that takes. */
export interface BackTo<Step> {
  type: 'backTo';
  step: Step;
}

/**
 * The actions both wizards take alike between the day and the quantity; each wizard says which
 * locker counts come with a confirmed duration (`Confirmed`).
 */
export type WizardAction<Step, Confirmed> =
  | { type: 'timeChosen'; time: string }
  | (DurationConfirmed & Confirmed)
  | { type: 'sizeChosen'; size: LockerSize }
  /** One step back, keeping what was chosen before that step. */
  | { type: 'back' }
  | BackTo<Step>;

function isBackTo<Step>(action: { type: string }): action is BackTo<Step> {
  return action.type === 'backTo';
}

/**
 * A wizard as its flow runs it (flow-history.ts): its steps in order, the step a state is at, and
 * its reducer, which also goes back to an earlier step (`backTo`): as many single steps back
 * (`back`) as that takes, never past the first step and never more than there are steps.
 */
export function defineWizard<State, Step, Action extends { type: string }>(
  order: readonly Step[],
  stepOf: (state: State) => Step,
  forward: (state: State, action: Action | { type: 'back' }) => State,
) {
  const reducer = (state: State, action: Action | { type: 'back' } | BackTo<Step>): State => {
    if (!isBackTo<Step>(action)) return forward(state, action);
    let next = state;
    for (let taken = 0; taken < order.length; taken += 1) {
      if (stepOf(next) === action.step || stepOf(next) === order[0]) break;
      next = forward(next, { type: 'back' });
    }
    return next;
  };
  return { order, stepOf, reducer };
}
