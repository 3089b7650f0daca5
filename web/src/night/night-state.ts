import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';
import { stepBackTo, type DurationConfirmed, type SharedWizardAction } from '../components/wizard-steps';

export type NightStep = 'calendar' | 'time' | 'duration' | 'lockerOptions' | 'lockerQuantity' | 'summary';

export interface NightState {
  step: NightStep;
  date: string | null;
  /** Start of the chosen day's window (06:00 local) until a time is chosen, then the chosen start. */
  startTimeIso: string | null;
  time: string | null;
  duration: Duration | null;
  endTimeIso: string | null;
  /** Free lockers per size: for the chosen date, then for the whole stay when it lasts days. */
  counts: SizeCounts | null;
  /** The chosen date's own counts, restored when the visitor goes back to the duration. */
  dayCounts: SizeCounts | null;
  size: LockerSize | null;
  quantity: number | null;
}

export type NightAction =
  | { type: 'dateConfirmed'; date: string; dayStartIso: string; counts: SizeCounts }
  | SharedWizardAction
  /** With the whole stay's counts when it lasts days. */
  | (DurationConfirmed & { counts?: SizeCounts })
  | { type: 'quantityChosen'; quantity: number }
  /** The browser's Back to an earlier step: as many steps back as that takes. */
  | { type: 'backTo'; step: NightStep }
  | { type: 'cancel' };

/** The wizard's steps in order (its history follows it). */
export const NIGHT_STEPS: readonly NightStep[] = [
  'calendar',
  'time',
  'duration',
  'lockerOptions',
  'lockerQuantity',
  'summary',
];

/** A state saved in this tab, checked before the wizard resumes from it; null: start again. */
export function restoreNightState(saved: NightState): NightState | null {
  const step = NIGHT_STEPS.indexOf(saved?.step);
  const has = (value: unknown) => value !== null && value !== undefined;
  const complete =
    step >= 0 &&
    (step < 1 || (typeof saved.date === 'string' && has(saved.startTimeIso) && has(saved.counts))) &&
    (step < 2 || typeof saved.time === 'string') &&
    (step < 3 || (has(saved.duration) && has(saved.endTimeIso))) &&
    (step < 4 || has(saved.size)) &&
    (step < 5 || typeof saved.quantity === 'number');
  return complete ? { ...INITIAL_NIGHT_STATE, ...saved } : null;
}

export const INITIAL_NIGHT_STATE: NightState = {
  step: 'calendar',
  date: null,
  startTimeIso: null,
  time: null,
  duration: null,
  endTimeIso: null,
  counts: null,
  dayCounts: null,
  size: null,
  quantity: null,
};

export function nightReducer(state: NightState, action: NightAction): NightState {
  switch (action.type) {
    case 'dateConfirmed':
      return {
        ...INITIAL_NIGHT_STATE,
        step: 'time',
        date: action.date,
        startTimeIso: action.dayStartIso,
        counts: action.counts,
        dayCounts: action.counts,
      };
    case 'timeChosen':
      return { ...state, step: 'duration', time: action.time, duration: null, endTimeIso: null };
    case 'durationConfirmed':
      return {
        ...state,
        step: 'lockerOptions',
        duration: action.duration,
        startTimeIso: action.startTimeIso,
        endTimeIso: action.endTimeIso,
        counts: action.counts ?? state.counts,
      };
    case 'sizeChosen':
      return { ...state, step: 'lockerQuantity', size: action.size };
    case 'quantityChosen':
      return { ...state, step: 'summary', quantity: action.quantity };
    case 'back':
      switch (state.step) {
        case 'time':
          return { ...state, step: 'calendar' };
        case 'duration':
          return { ...state, step: 'time' };
        case 'lockerOptions':
          return { ...state, step: 'duration', duration: null, endTimeIso: null, counts: state.dayCounts };
        case 'lockerQuantity':
          return { ...state, step: 'lockerOptions', size: null };
        case 'summary':
          return { ...state, step: 'lockerQuantity', quantity: null };
        default:
          return state;
      }
    case 'backTo':
      return stepBackTo(
        state,
        action.step,
        NIGHT_STEPS,
        (night) => night.step,
        (night) => nightReducer(night, { type: 'back' }),
      );
    case 'cancel':
      return INITIAL_NIGHT_STATE;
  }
}
