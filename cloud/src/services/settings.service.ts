import {
  DEFAULT_SYSTEM_SETTINGS,
  fastTrackWindowProblem,
  systemSettingsSchema,
  type FrontendOverrides,
  type SystemSettings,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { Store } from '../store/store';
import { staleEditError } from './stale-edit';

function parseSettings(stored: Record<string, unknown>): SystemSettings {
  const settings: Record<string, unknown> = { ...DEFAULT_SYSTEM_SETTINGS };
  for (const key of Object.keys(DEFAULT_SYSTEM_SETTINGS) as Array<Exclude<keyof SystemSettings, 'version'>>) {
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

  /** The settings as the admin page reads them: with the version its save sends back. */
  async forOperator(): Promise<SystemSettings> {
    const [settings, stamp] = await Promise.all([this.system(), this.store.settings.editStamp()]);
    return { ...settings, version: stamp.version };
  }

  /**
   * An operator's save: refused (`edit/stale`, nothing written) when another operator saved since
   * `version` was read; answers all the settings with the new version.
   */
  async edit(actor: string, { version, ...values }: Partial<SystemSettings>): Promise<SystemSettings> {
    // One bound sent alone is checked with the other as stored (the schema checked a pair sent together).
    if ((values.FASTTRACK_FROM === undefined) !== (values.FASTTRACK_TO === undefined)) {
      const current = await this.system();
      const problem = fastTrackWindowProblem(
        values.FASTTRACK_FROM ?? current.FASTTRACK_FROM,
        values.FASTTRACK_TO ?? current.FASTTRACK_TO,
      );
      if (problem) throw new AppError(problem);
    }
    const result = await this.store.settings.edit(
      values,
      { actor, expectedVersion: version },
      this.clock.now(),
    );
    if (!result.ok) throw staleEditError('I parametri di sistema sono stati modificati', result.current);
    return this.forOperator();
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
      cancellationPolicy: settings.VISITOR_CANCELLATION_POLICY,
      lockerDimensions: {
        standard: settings.LOCKER_DIMENSIONS_STANDARD,
        large: settings.LOCKER_DIMENSIONS_LARGE,
      },
    };
  }
}
