import type { SizeCounts } from '@deposito/protocol/schemas/primitives';
import { chosen, defineWizard, NO_CHOICES } from '../components/wizard-steps';
import type { WizardAction, WizardChoices } from '../components/wizard-steps';

/** The wizard's steps in order (its history follows it). */
export const NIGHT_STEPS = [
  'calendar',
  'time',
  'duration',
  'lockerOptions',
  'lockerQuantity',
  'summary',
] as const;

export type NightStep = (typeof NIGHT_STEPS)[number];

/**
 * The night's choices: `startTimeIso` is the start of the chosen day's window (06:00 local) until a
 * time is chosen, then the chosen start; `counts` are for the chosen date, then for the whole stay
 * when it lasts days.
 */
export interface NightState extends WizardChoices {
  step: NightStep;
  /** The chosen date's own counts, restored when the visitor goes back to the duration. */
  dayCounts: SizeCounts | null;
}

export type NightAction =
  | { type: 'dateConfirmed'; date: string; dayStartIso: string; counts: SizeCounts }
  /** With the whole stay's counts when it lasts days. */
  | WizardAction<NightStep, { counts?: SizeCounts }>
  | { type: 'quantityChosen'; quantity: number }
  | { type: 'cancel' };

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

export const INITIAL_NIGHT_STATE: NightState = { ...NO_CHOICES, step: 'calendar', dayCounts: null };

function nightStep(state: NightState, action: Exclude<NightAction, { type: 'backTo' }>): NightState {
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
      return { ...chosen.time(state, action.time), step: 'duration' };
    case 'durationConfirmed':
      return { ...chosen.stay(state, action), step: 'lockerOptions' };
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

/** The night wizard's steps, in order, and its reducer. */
export const NIGHT_WIZARD = defineWizard(NIGHT_STEPS, (night: NightState) => night.step, nightStep);
export const nightReducer = NIGHT_WIZARD.reducer;
