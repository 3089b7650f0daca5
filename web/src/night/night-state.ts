import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';

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
  | { type: 'timeChosen'; time: string }
  | {
      type: 'durationConfirmed';
      duration: Duration;
      startTimeIso: string;
      endTimeIso: string;
      counts?: SizeCounts;
    }
  | { type: 'sizeChosen'; size: LockerSize }
  | { type: 'quantityChosen'; quantity: number }
  /** One step back, keeping what was chosen before that step. */
  | { type: 'back' }
  | { type: 'cancel' };

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
    case 'cancel':
      return INITIAL_NIGHT_STATE;
  }
}
