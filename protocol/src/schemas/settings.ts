import { z } from 'zod';
import { MAX_BLOCK_WINDOWS } from './limits';
import { timeWindowSchema, zTimeOfDay } from './primitives';

export const DEFAULT_BOOKING_EXPIRATION_MINUTES = 15;
export const DEFAULT_FASTTRACK_FROM = '06:00';
export const DEFAULT_FASTTRACK_TO = '21:00';

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
});
export type SystemSettings = z.infer<typeof systemSettingsSchema>;

/** A change to some settings; fields left out keep their stored value (no defaults here on purpose). */
export const systemSettingsPatchSchema = z.object(settingsFields).partial();
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
});
export type FrontendOverrides = z.infer<typeof frontendOverridesSchema>;
