import type { Kysely } from 'kysely';
import type { Database } from './database';
import { ReadCache } from './read-cache';
import { fromJson } from './values';

/** System parameters as key → JSON value; the settings service gives them meaning and defaults. */
export interface SettingsRepository {
  /**
   * Every stored parameter, from a short-lived cache (`READ_CACHE_TTL_MS`): every hold reads them.
   * `set` through this store drops it at once. Callers must not modify the answer.
   */
  all(): Promise<Record<string, unknown>>;
  get(key: string): Promise<unknown>;
  set(values: Record<string, unknown>, now: Date): Promise<void>;
}

export class KyselySettingsRepository implements SettingsRepository {
  private readonly cache = new ReadCache<Record<string, unknown>>();

  constructor(private readonly db: Kysely<Database>) {}

  all(): Promise<Record<string, unknown>> {
    return this.cache.get('all', async () => {
      const rows = await this.db.selectFrom('settings').select(['key', 'value']).execute();
      return Object.fromEntries(rows.map((row) => [row.key, fromJson(row.value)]));
    });
  }

  async get(key: string): Promise<unknown> {
    const row = await this.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? fromJson(row.value) : undefined;
  }

  async set(values: Record<string, unknown>, now: Date): Promise<void> {
    const entries = Object.entries(values).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    await this.db
      .insertInto('settings')
      .values(entries.map(([key, value]) => ({ key, value: JSON.stringify(value), updated_at: now })))
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          value: eb.ref('excluded.value'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
    this.cache.invalidate();
  }
}
