import {
  DEFAULT_SYSTEM_SETTINGS,
  systemSettingsSchema,
  type FrontendOverrides,
  type SystemSettings,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import type { Store } from '../store/store';

function parseSettings(stored: Record<string, unknown>): SystemSettings {
  const settings: Record<string, unknown> = { ...DEFAULT_SYSTEM_SETTINGS };
  for (const key of Object.keys(DEFAULT_SYSTEM_SETTINGS) as Array<keyof SystemSettings>) {
    if (!(key in stored)) continue;
    const field = systemSettingsSchema.shape[key].safeParse(stored[key]);
    if (field.success) settings[key] = field.data;
  }
  return settings as SystemSettings;
}

/** System parameters with their defaults; a stored value that no longer parses falls back to its default. */
export class SettingsService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The last stored parameters seen and what they parsed to (the store reuses its answer briefly). */
  private parsed: { stored: Record<string, unknown>; settings: SystemSettings } | null = null;

  async system(): Promise<SystemSettings> {
    const stored = await this.store.settings.all();
    if (this.parsed?.stored !== stored) this.parsed = { stored, settings: parseSettings(stored) };
    return { ...this.parsed.settings };
  }

  /** Stores the given parameters (already validated by the caller's schema) and answers all of them. */
  async update(values: Partial<SystemSettings>): Promise<SystemSettings> {
    await this.store.settings.set(values, this.clock.now());
    return this.system();
  }

  async bookingExpirationMinutes(): Promise<number> {
    return (await this.system()).BOOKING_EXPIRATION_MINUTES;
  }

  /** What the booking pages apply (customer spec §3); the same for every location today. */
  async frontendOverrides(): Promise<FrontendOverrides> {
    const settings = await this.system();
    return {
      showNightButtonTest: settings.SHOW_NIGHT_BUTTON_TEST,
      ALWAYS_SHOW_FAST_TRACK: settings.ALWAYS_SHOW_FAST_TRACK,
      fastTrackHours: { from: settings.FASTTRACK_FROM, to: settings.FASTTRACK_TO },
      BLOCK_WINDOWS: settings.BLOCK_WINDOWS,
      block_windows: settings.BLOCK_WINDOWS,
      MAINTENANCE_MODE: settings.MAINTENANCE_MODE,
    };
  }
}
