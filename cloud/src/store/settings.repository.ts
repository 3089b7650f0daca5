import { sql, type Kysely } from 'kysely';
import type { Database } from './database';
import { isStale, toEditStamp, type EditIntent, type EditStamp, type StaleEdit } from './edit-stamp';
import type { SqlDialect } from './migrate';
import { ReadCache } from './read-cache';
import { fromJson } from './values';
import { writeTransaction } from './write-transaction';

/** Serialises operators' saves of the settings on PostgreSQL (a row that does not exist yet cannot be locked). */
const SETTINGS_EDIT_LOCK = 720_251_125;

/** System parameters as key → JSON value; the settings service gives them meaning and defaults. */
export interface SettingsRepository {
  /**
   * Every stored parameter, from a short-lived cache (`READ_CACHE_TTL_MS`): every hold reads them.
   * `set` through this store drops it at once. Callers must not modify the answer.
   */
  all(): Promise<Record<string, unknown>>;
  get(key: string): Promise<unknown>;
  set(values: Record<string, unknown>, now: Date): Promise<void>;
  /**
   * The settings' edit version (the highest of their rows; 1 when none is stored) and who saved
   * that row. The settings are edited together, so one version covers them all.
   */
  editStamp(): Promise<EditStamp>;
  /**
   * An operator's save: refused when the version read is stale, otherwise the values are written
   * with the next version and the operator's e-mail, in one transaction.
   */
  edit(values: Record<string, unknown>, intent: EditIntent, now: Date): Promise<{ ok: true } | StaleEdit>;
}

async function stampIn(db: Kysely<Database>): Promise<EditStamp> {
  const row = await db
    .selectFrom('settings')
    .select(['version', 'updated_by', 'updated_at'])
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toEditStamp(row) : { version: 1, updatedBy: null, updatedAt: null };
}

export class KyselySettingsRepository implements SettingsRepository {
  private readonly cache = new ReadCache<Record<string, unknown>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  editStamp(): Promise<EditStamp> {
    return stampIn(this.db);
  }

  async edit(
    values: Record<string, unknown>,
    intent: EditIntent,
    now: Date,
  ): Promise<{ ok: true } | StaleEdit> {
    const entries = Object.entries(values).filter(([, value]) => value !== undefined);
    const result = await writeTransaction(
      this.db,
      this.dialect,
      async (trx): Promise<{ ok: true } | StaleEdit> => {
        if (this.dialect === 'postgres')
          await sql`select pg_advisory_xact_lock(${SETTINGS_EDIT_LOCK})`.execute(trx);
        const current = await stampIn(trx);
        if (isStale(intent, current)) return { ok: false, reason: 'stale', current };
        const version = current.version + 1;
        const rows = entries.length > 0 ? entries : [];
        if (rows.length > 0) {
          await trx
            .insertInto('settings')
            .values(
              entries.map(([key, value]) => ({
                key,
                value: JSON.stringify(value),
                updated_at: now,
                version,
                updated_by: intent.actor,
              })),
            )
            .onConflict((oc) =>
              oc.column('key').doUpdateSet((eb) => ({
                value: eb.ref('excluded.value'),
                updated_at: eb.ref('excluded.updated_at'),
                version: eb.ref('excluded.version'),
                updated_by: eb.ref('excluded.updated_by'),
              })),
            )
            .execute();
        }
        return { ok: true };
      },
    );
    this.cache.invalidate();
    return result;
  }

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
