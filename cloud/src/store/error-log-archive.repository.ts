import { sql, type Kysely } from 'kysely';
import type { Database } from './database';
import { toErrorLogEntry, type ErrorLogEntry } from './error-log.repository';
import { containing, likeLower } from './like-pattern';

/** What the archive may be narrowed to (the audit trail's filters); every field optional. */
export interface ErrorLogFilter {
  /** Entries strictly before this instant (the next page), and at or after `from`. */
  before?: Date;
  from?: Date;
  /** The type, or the start of types: `admin/` is every operator's action. */
  type?: string;
  locationKey?: string;
  lockerId?: number;
  /** A text in the message, any case (an operator's e-mail: each action names who did it). */
  text?: string;
}

/** Older error-log entries, a page at a time (the "Archive Log" screen and its filters). */
export interface ErrorLogArchiveRepository {
  /** The entries the filter keeps, newest first, at most `limit`. */
  page(filter: ErrorLogFilter, limit: number): Promise<ErrorLogEntry[]>;
}

export class KyselyErrorLogArchiveRepository implements ErrorLogArchiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async page(filter: ErrorLogFilter, limit: number): Promise<ErrorLogEntry[]> {
    let query = this.db.selectFrom('error_log').selectAll();
    if (filter.before) query = query.where('at', '<', filter.before);
    if (filter.from) query = query.where('at', '>=', filter.from);
    if (filter.type) {
      // A prefix ending in "/" is a family of types; anything else names one type.
      query = filter.type.endsWith('/')
        ? query.where(likeLower(sql`type`, `${containing(filter.type).slice(1, -1)}%`))
        : query.where('type', '=', filter.type);
    }
    if (filter.locationKey) query = query.where('location_key', '=', filter.locationKey);
    if (filter.lockerId !== undefined) query = query.where('locker_id', '=', filter.lockerId);
    if (filter.text) query = query.where(likeLower(sql`message`, containing(filter.text)));
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toErrorLogEntry);
  }
}
