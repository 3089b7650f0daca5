import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';
import { chosen, defineWizard, NO_CHOICES } from '../components/wizard-steps';
import type { WizardAction, WizardChoices } from '../components/wizard-steps';

/** The steps in order (the flow's history follows it). */
export const DAYTIME_VIEWS = [
  'idle',
  'calendar',
  'timeSelection',
  'duration',
  'lockerOptions',
  'lockerQuantity',
  'summary',
] as const;

export type DaytimeView = (typeof DAYTIME_VIEWS)[number];

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

export interface DaytimeState extends WizardChoices {
  view: DaytimeView;
  hold: LockerHold | null;
}

export type DaytimeAction =
  | { type: 'openCalendar' }
  | { type: 'dateConfirmed'; date: string }
  | WizardAction<DaytimeView, { counts: SizeCounts }>
  | { type: 'lockersHeld'; hold: LockerHold }
  | { type: 'reset' };

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

export const INITIAL_DAYTIME_STATE: DaytimeState = { ...NO_CHOICES, view: 'idle', hold: null };

const PREVIOUS: Record<DaytimeView, DaytimeView> = {
  idle: 'idle',
  calendar: 'idle',
  timeSelection: 'calendar',
  duration: 'timeSelection',
  lockerOptions: 'duration',
  lockerQuantity: 'lockerOptions',
  summary: 'lockerQuantity',
};

function daytimeStep(state: DaytimeState, action: Exclude<DaytimeAction, { type: 'backTo' }>): DaytimeState {
  switch (action.type) {
    case 'openCalendar':
      return { ...INITIAL_DAYTIME_STATE, view: 'calendar' };
    case 'dateConfirmed':
      return { ...state, view: 'timeSelection', date: action.date, time: null, duration: null, counts: null };
    case 'timeChosen':
      return { ...chosen.time(state, action.time), view: 'duration' };
    case 'durationConfirmed':
      return { ...chosen.stay(state, action), view: 'lockerOptions', size: null, quantity: null };
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
    case 'reset':
      return INITIAL_DAYTIME_STATE;
  }
}

/** The daytime flow's steps, in order, and its reducer. */
export const DAYTIME_WIZARD = defineWizard(
  DAYTIME_VIEWS,
  (daytime: DaytimeState) => daytime.view,
  daytimeStep,
);
export const daytimeReducer = DAYTIME_WIZARD.reducer;
