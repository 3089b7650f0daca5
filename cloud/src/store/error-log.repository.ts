import type { Kysely, Selectable } from 'kysely';
import type { Database, ErrorLogTable } from './database';
import { toDate } from './values';

export interface ErrorLogEntry {
  id: number;
  at: Date;
  type: string;
  locationKey: string | null;
  lockerId: number | null;
  message: string;
}

/** An `error_log` row as the repositories answer it. */
export function toErrorLogEntry(row: Selectable<ErrorLogTable>): ErrorLogEntry {
  return {
    id: row.id,
    at: toDate(row.at),
    type: row.type,
    locationKey: row.location_key,
    lockerId: row.locker_id,
    message: row.message,
  };
}

export interface ErrorLogRepository {
  add(entry: Omit<ErrorLogEntry, 'id'>): Promise<void>;
  recent(limit: number): Promise<ErrorLogEntry[]>;
}

export class KyselyErrorLogRepository implements ErrorLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: Omit<ErrorLogEntry, 'id'>): Promise<void> {
    await this.db
      .insertInto('error_log')
      .values({
        at: entry.at,
        type: entry.type,
        location_key: entry.locationKey,
        locker_id: entry.lockerId,
        message: entry.message,
      })
      .execute();
  }

  async recent(limit: number): Promise<ErrorLogEntry[]> {
    const rows = await this.db
      .selectFrom('error_log')
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toErrorLogEntry);
  }
}
