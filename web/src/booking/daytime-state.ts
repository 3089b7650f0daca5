import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';
import { stepBackTo, type DurationConfirmed, type SharedWizardAction } from '../components/wizard-steps';

export type DaytimeView =
  'idle' | 'calendar' | 'timeSelection' | 'duration' | 'lockerOptions' | 'lockerQuantity' | 'summary';

/** Lockers the server holds for this visitor while they fill in the summary. */
export interface LockerHold {
  transactionId: string;
  reservedLockers: number[];
  size: LockerSize;
  quantity: number;
  startTimeIso: string;
  endTimeIso: string;
  /** The server's price for the held lockers (before discount and fee). */
  priceCents: number;
  duration: Duration;
  fastTrack: 'fasttrack' | 'fasttrack-fallback' | null;
  /** When the server releases the lockers unless paid, if it said. */
  expiresAt?: string;
}

export interface DaytimeState {
  view: DaytimeView;
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
  hold: LockerHold | null;
}

export type DaytimeAction =
  | { type: 'openCalendar' }
  | { type: 'dateConfirmed'; date: string }
  | SharedWizardAction
  | (DurationConfirmed & { counts: SizeCounts })
  | { type: 'lockersHeld'; hold: LockerHold }
  /** The browser's Back to an earlier step: as many steps back as that takes. */
  | { type: 'backTo'; view: DaytimeView }
  | { type: 'reset' };

/** The steps in order (the flow's history follows it). */
export const DAYTIME_VIEWS: readonly DaytimeView[] = [
  'idle',
  'calendar',
  'timeSelection',
  'duration',
  'lockerOptions',
  'lockerQuantity',
  'summary',
];

/** A state saved in this tab, checked before the flow resumes from it; null: start again. */
export function restoreDaytimeState(saved: DaytimeState): DaytimeState | null {
  const complete =
    typeof saved === 'object' &&
    saved !== null &&
    DAYTIME_VIEWS.includes(saved.view) &&
    (saved.view !== 'summary' || (saved.hold !== null && typeof saved.hold?.transactionId === 'string')) &&
    (saved.view === 'idle' || saved.view === 'calendar' || typeof saved.date === 'string') &&
    (!['lockerOptions', 'lockerQuantity'].includes(saved.view) || saved.counts !== null) &&
    (saved.view !== 'lockerQuantity' || saved.size !== null);
  return complete ? { ...INITIAL_DAYTIME_STATE, ...saved } : null;
}

export const INITIAL_DAYTIME_STATE: DaytimeState = {
  view: 'idle',
  date: null,
  time: null,
  duration: null,
  startTimeIso: null,
  endTimeIso: null,
  counts: null,
  size: null,
  quantity: null,
  hold: null,
};

const PREVIOUS: Record<DaytimeView, DaytimeView> = {
  idle: 'idle',
  calendar: 'idle',
  timeSelection: 'calendar',
  duration: 'timeSelection',
  lockerOptions: 'duration',
  lockerQuantity: 'lockerOptions',
  summary: 'lockerQuantity',
};

export function daytimeReducer(state: DaytimeState, action: DaytimeAction): DaytimeState {
  switch (action.type) {
    case 'openCalendar':
      return { ...INITIAL_DAYTIME_STATE, view: 'calendar' };
    case 'dateConfirmed':
      return { ...state, view: 'timeSelection', date: action.date, time: null, duration: null, counts: null };
    case 'timeChosen':
      return { ...state, view: 'duration', time: action.time, duration: null, endTimeIso: null };
    case 'durationConfirmed':
      return {
        ...state,
        view: 'lockerOptions',
        duration: action.duration,
        startTimeIso: action.startTimeIso,
        endTimeIso: action.endTimeIso,
        counts: action.counts,
        size: null,
        quantity: null,
      };
    case 'sizeChosen':
      return { ...state, view: 'lockerQuantity', size: action.size, quantity: null };
    case 'lockersHeld':
      return {
        ...state,
        view: 'summary',
        hold: action.hold,
        size: action.hold.size,
        quantity: action.hold.quantity,
        startTimeIso: action.hold.startTimeIso,
        endTimeIso: action.hold.endTimeIso,
        duration: action.hold.duration,
      };
    case 'back': {
      // A fast-track booking skipped the steps: its way back is the start.
      if (state.view === 'summary' && state.hold?.fastTrack) return INITIAL_DAYTIME_STATE;
      const view = PREVIOUS[state.view];
      // Going back from the sizes clears the duration and the end time.
      if (state.view === 'lockerOptions') {
        return { ...state, view, duration: null, endTimeIso: null, counts: null, size: null };
      }
      if (state.view === 'summary') return { ...state, view, hold: null, quantity: null };
      return { ...state, view };
    }
    case 'backTo':
      return stepBackTo(
        state,
        action.view,
        DAYTIME_VIEWS,
        (daytime) => daytime.view,
        (daytime) => daytimeReducer(daytime, { type: 'back' }),
      );
    case 'reset':
      return INITIAL_DAYTIME_STATE;
  }
}
