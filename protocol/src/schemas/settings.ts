import { z } from 'zod';
import {
  DEFAULT_VISITOR_CANCELLATION_POLICY,
  zVisitorCancellationPolicy,
} from '../booking/cancellation-policy';
import { MAX_BLOCK_WINDOWS, MAX_DIMENSIONS_LENGTH } from './limits';
import type { ErrorCode } from '../api/errors';
import { timeWindowSchema, twoDecimals, zEditVersion, zTimeOfDay, type TimeWindow } from './primitives';

export const DEFAULT_BOOKING_EXPIRATION_MINUTES = 15;
export const DEFAULT_FASTTRACK_FROM = '06:00';
export const DEFAULT_FASTTRACK_TO = '21:00';
/** The receipt's merchant until an operator sets the real one: name first, then address and VAT id. */
export const DEFAULT_RECEIPT_MERCHANT = 'Deposito S.r.l.';
/** Italian VAT on services, included in every price. */
export const DEFAULT_RECEIPT_VAT_PERCENT = 22;
/** How long a site's bridge may be offline, and a door open, before the operators are alerted. */
export const DEFAULT_ALERT_BRIDGE_OFFLINE_MINUTES = 5;
export const DEFAULT_ALERT_DOOR_OPEN_MINUTES = 10;

/**
 * System parameters (admin spec §3). Block windows are times of day in each location's zone; a
 * window whose `to` is before its `from` runs past midnight.
 */
const settingsFields = {
  BLOCK_WINDOWS: z.array(timeWindowSchema).max(MAX_BLOCK_WINDOWS),
  BOOKING_EXPIRATION_MINUTES: z.number().int().min(1).max(240),
  MAINTENANCE_MODE: z.boolean(),
  FASTTRACK_FROM: zTimeOfDay,
  FASTTRACK_TO: zTimeOfDay,
  SHOW_NIGHT_BUTTON_TEST: z.boolean(),
  ALWAYS_SHOW_FAST_TRACK: z.boolean(),
  /** When visitors may cancel from their booking page (shown there and in the terms). */
  VISITOR_CANCELLATION_POLICY: zVisitorCancellationPolicy,
  /** The merchant printed on receipts, one line each: name, address, VAT number. */
  RECEIPT_MERCHANT: z.string().trim().min(1).max(500),
  /** The VAT rate included in prices, printed as a line of the receipt (0: none). */
  RECEIPT_VAT_PERCENT: twoDecimals(z.number().min(0).max(100)),
  /** A standard locker's inside measurements as visitors read them, e.g. "35 × 45 × 60 cm"; empty: not shown. */
  LOCKER_DIMENSIONS_STANDARD: z.string().trim().max(MAX_DIMENSIONS_LENGTH),
  /** The same for a large locker. */
  LOCKER_DIMENSIONS_LARGE: z.string().trim().max(MAX_DIMENSIONS_LENGTH),
  /** Minutes a site's bridge may stay offline before the operators get an alert (and an e-mail). */
  ALERT_BRIDGE_OFFLINE_MINUTES: z.number().int().min(1).max(1440),
  /** Minutes a locker's door may stay open before the operators get an alert. */
  ALERT_DOOR_OPEN_MINUTES: z.number().int().min(1).max(1440),
};

export const systemSettingsSchema = z.object({
  BLOCK_WINDOWS: settingsFields.BLOCK_WINDOWS.default([]),
  BOOKING_EXPIRATION_MINUTES: settingsFields.BOOKING_EXPIRATION_MINUTES.default(
    DEFAULT_BOOKING_EXPIRATION_MINUTES,
  ),
  MAINTENANCE_MODE: settingsFields.MAINTENANCE_MODE.default(false),
  FASTTRACK_FROM: settingsFields.FASTTRACK_FROM.default(DEFAULT_FASTTRACK_FROM),
  FASTTRACK_TO: settingsFields.FASTTRACK_TO.default(DEFAULT_FASTTRACK_TO),
  SHOW_NIGHT_BUTTON_TEST: settingsFields.SHOW_NIGHT_BUTTON_TEST.default(false),
  ALWAYS_SHOW_FAST_TRACK: settingsFields.ALWAYS_SHOW_FAST_TRACK.default(false),
  VISITOR_CANCELLATION_POLICY: settingsFields.VISITOR_CANCELLATION_POLICY.default(
    DEFAULT_VISITOR_CANCELLATION_POLICY,
  ),
  RECEIPT_MERCHANT: settingsFields.RECEIPT_MERCHANT.default(DEFAULT_RECEIPT_MERCHANT),
  RECEIPT_VAT_PERCENT: settingsFields.RECEIPT_VAT_PERCENT.default(DEFAULT_RECEIPT_VAT_PERCENT),
  LOCKER_DIMENSIONS_STANDARD: settingsFields.LOCKER_DIMENSIONS_STANDARD.default(''),
  LOCKER_DIMENSIONS_LARGE: settingsFields.LOCKER_DIMENSIONS_LARGE.default(''),
  ALERT_BRIDGE_OFFLINE_MINUTES: settingsFields.ALERT_BRIDGE_OFFLINE_MINUTES.default(
    DEFAULT_ALERT_BRIDGE_OFFLINE_MINUTES,
  ),
  ALERT_DOOR_OPEN_MINUTES: settingsFields.ALERT_DOOR_OPEN_MINUTES.default(DEFAULT_ALERT_DOOR_OPEN_MINUTES),
  /** The settings' edit version, in the admin answers; a save sends back the one it read. */
  version: zEditVersion.optional(),
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const DAY_MINUTES = 24 * 60;

/** A window as stretches of the day in minutes `[from, to)`; one past midnight is two stretches. */
function stretchesOf({ from, to }: TimeWindow): Array<[number, number]> {
  const start = minutesOf(from);
  const end = minutesOf(to);
  return start < end
    ? [[start, end]]
    : [
        [start, DAY_MINUTES],
        [0, end],
      ];
}

/**
 * Why a list of block windows would harm every site, or null: a window that starts and ends at the
 * same minute (empty, or the whole day: nobody can tell which was meant), or two windows sharing a
 * minute (one of them is a typo). Windows that only touch (`10:00–11:00`, `11:00–12:00`) are fine.
 */
export function blockWindowsProblem(
  windows: readonly TimeWindow[],
): 'settings/block_window_empty' | 'settings/block_windows_overlap' | null {
  if (windows.some((window) => window.from === window.to)) return 'settings/block_window_empty';
  const stretches = windows.map(stretchesOf);
  for (let a = 0; a < stretches.length; a += 1) {
    for (let b = a + 1; b < stretches.length; b += 1) {
      for (const [startA, endA] of stretches[a]!) {
        for (const [startB, endB] of stretches[b]!) {
          if (startA < endB && startB < endA) return 'settings/block_windows_overlap';
        }
      }
    }
  }
  return null;
}

/** The fast-track window is one stretch of the day: it starts before it ends. */
export function fastTrackWindowProblem(from: string, to: string): 'settings/fast_track_inverted' | null {
  return minutesOf(from) < minutesOf(to) ? null : 'settings/fast_track_inverted';
}

const SETTINGS_PROBLEM_MESSAGES = {
  'settings/block_window_empty': 'A block window starts and ends at the same time',
  'settings/block_windows_overlap': 'Two block windows overlap',
  'settings/fast_track_inverted': 'The fast-track window must start before it ends',
} as const satisfies Partial<Record<ErrorCode, string>>;

function addSettingsProblem(
  ctx: z.RefinementCtx,
  code: keyof typeof SETTINGS_PROBLEM_MESSAGES,
  path: string[],
): void {
  ctx.addIssue({ code: 'custom', path, message: SETTINGS_PROBLEM_MESSAGES[code], params: { code } });
}

/**
 * A change to some settings; fields left out keep their stored value (no defaults here on purpose).
 * Harmful values are refused here, for the page and the server alike; a fast-track bound sent alone
 * is checked against the stored other bound by the server (`fastTrackWindowProblem`).
 */
export const systemSettingsPatchSchema = z
  .object({
    ...settingsFields,
    /** The version read (`edit/stale` when another operator saved since); absent: not checked. */
    version: zEditVersion,
  })
  .partial()
  .superRefine((patch, ctx) => {
    const windows = patch.BLOCK_WINDOWS && blockWindowsProblem(patch.BLOCK_WINDOWS);
    if (windows) addSettingsProblem(ctx, windows, ['BLOCK_WINDOWS']);
    if (patch.FASTTRACK_FROM !== undefined && patch.FASTTRACK_TO !== undefined) {
      const fastTrack = fastTrackWindowProblem(patch.FASTTRACK_FROM, patch.FASTTRACK_TO);
      if (fastTrack) addSettingsProblem(ctx, fastTrack, ['FASTTRACK_TO']);
    }
  });
export type SystemSettingsPatch = z.infer<typeof systemSettingsPatchSchema>;

export const DEFAULT_SYSTEM_SETTINGS: SystemSettings = systemSettingsSchema.parse({});

/** The admin overrides the customer pages read (customer spec §3). */
export const frontendOverridesSchema = z.object({
  showNightButtonTest: z.boolean(),
  ALWAYS_SHOW_FAST_TRACK: z.boolean(),
  fastTrackHours: timeWindowSchema,
  BLOCK_WINDOWS: z.array(timeWindowSchema).max(MAX_BLOCK_WINDOWS),
  /** Older servers spelled the list in lower case; read it when BLOCK_WINDOWS is absent. */
  block_windows: z.array(timeWindowSchema).max(MAX_BLOCK_WINDOWS).optional(),
  MAINTENANCE_MODE: z.boolean(),
  /** Ours: when visitors may cancel online, for the terms (older servers send none). */
  cancellationPolicy: zVisitorCancellationPolicy.optional(),
  /** Ours: each size's inside measurements as the operators wrote them; empty: none shown. */
  lockerDimensions: z
    .object({
      standard: z.string().max(MAX_DIMENSIONS_LENGTH),
      large: z.string().max(MAX_DIMENSIONS_LENGTH),
    })
    .optional(),
});
export type FrontendOverrides = z.infer<typeof frontendOverridesSchema>;
