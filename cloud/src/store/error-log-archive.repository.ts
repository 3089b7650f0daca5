import type { Kysely } from 'kysely';
import type { Database } from './database';
import type { ErrorLogEntry } from './error-log.repository';
import { toDate } from './values';

/** Older error-log entries, a page at a time (the "Archive Log" screen). */
export interface ErrorLogArchiveRepository {
  /** Entries strictly before `before` (all when undefined), newest first. */
  page(before: Date | undefined, limit: number): Promise<ErrorLogEntry[]>;
}

export class KyselyErrorLogArchiveRepository implements ErrorLogArchiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(before: Date | undefined, limit: number): Promise<ErrorLogEntry[]> {
    let query = this.db.selectFrom('error_log').selectAll();
    if (before) query = query.where('at', '<', before);
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map((row) => ({
      id: row.id,
      at: toDate(row.at),
      type: row.type,
      locationKey: row.location_key,
      lockerId: row.locker_id,
      message: row.message,
    }));
  }
}
