import { sql, type ColumnType, type Generated, type Kysely } from 'kysely';
import type { Database, Instant, NullableInstant } from './database';
import { toBoolean, toDate, toDateOrNull } from './values';

/** Migration 20251127110000_alerts. */
interface AlertTable {
  id: Generated<number>;
  kind: string;
  subject: string;
  location_key: string | null;
  locker_id: number | null;
  message: string;
  raised_at: Instant;
  resolved_at: NullableInstant;
  acknowledged_at: NullableInstant;
  acknowledged_by: string | null;
  closed: ColumnType<boolean | number, boolean | undefined, boolean>;
}

interface AlertDatabase extends Database {
  alerts: AlertTable;
}

export interface AlertRecord {
  id: number;
  kind: string;
  /** What it is about, e.g. `bridge_offline:vicolo`: one open alert each. */
  subject: string;
  locationKey: string | null;
  lockerId: number | null;
  message: string;
  raisedAt: Date;
  /** Its cause went away (the bridge is back, the door closed); null while it lasts. */
  resolvedAt: Date | null;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
}

export type NewAlert = Pick<
  AlertRecord,
  'kind' | 'subject' | 'locationKey' | 'lockerId' | 'message' | 'raisedAt'
>;

export interface AlertRepository {
  /** Raises the alert unless one is open for its subject; the new record, or null when one was. */
  raise(alert: NewAlert): Promise<AlertRecord | null>;
  /** Marks the open alerts of these subjects resolved; an acknowledged one is closed too. */
  resolve(subjects: readonly string[], now: Date): Promise<void>;
  /** Which of these subjects were ever raised, open or closed (an event is alerted once). */
  known(subjects: readonly string[]): Promise<Set<string>>;
  /** The open alerts' subjects of a kind (to resolve those whose cause went away). */
  openSubjects(kind: string): Promise<string[]>;
  /** What operators still have to see: not yet acknowledged, or still going on; newest first. */
  open(limit: number): Promise<AlertRecord[]>;
  /** An operator has seen it; closed if resolved. False when there is no such open alert. */
  acknowledge(id: number, by: string, now: Date): Promise<boolean>;
}

function toAlert(row: {
  id: number;
  kind: string;
  subject: string;
  location_key: string | null;
  locker_id: number | null;
  message: string;
  raised_at: Date | string;
  resolved_at: Date | string | null;
  acknowledged_at: Date | string | null;
  acknowledged_by: string | null;
}): AlertRecord {
  return {
    id: row.id,
    kind: row.kind,
    subject: row.subject,
    locationKey: row.location_key,
    lockerId: row.locker_id,
    message: row.message,
    raisedAt: toDate(row.raised_at),
    resolvedAt: toDateOrNull(row.resolved_at),
    acknowledgedAt: toDateOrNull(row.acknowledged_at),
    acknowledgedBy: row.acknowledged_by,
  };
}

export class KyselyAlertRepository implements AlertRepository {
  private readonly db: Kysely<AlertDatabase>;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<AlertDatabase>;
  }

  async raise(alert: NewAlert): Promise<AlertRecord | null> {
    const row = await this.db
      .insertInto('alerts')
      .values({
        kind: alert.kind,
        subject: alert.subject,
        location_key: alert.locationKey,
        locker_id: alert.lockerId,
        message: alert.message,
        raised_at: alert.raisedAt,
        closed: false,
      })
      // The open alert of the subject (alerts_open_subject_idx) stands; nothing new is raised.
      .onConflict((oc) =>
        oc
          .column('subject')
          .where(sql<boolean>`closed = false`)
          .doNothing(),
      )
      .returningAll()
      .executeTakeFirst();
    return row ? toAlert(row) : null;
  }

  async resolve(subjects: readonly string[], now: Date): Promise<void> {
    if (subjects.length === 0) return;
    const open = this.db
      .updateTable('alerts')
      .where('subject', 'in', [...subjects])
      .where('closed', '=', false)
      .where('resolved_at', 'is', null);
    await open.set({ resolved_at: now, closed: true }).where('acknowledged_at', 'is not', null).execute();
    await open.set({ resolved_at: now }).execute();
  }

  async known(subjects: readonly string[]): Promise<Set<string>> {
    if (subjects.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('alerts')
      .select('subject')
      .where('subject', 'in', [...subjects])
      .execute();
    return new Set(rows.map((row) => row.subject));
  }

  async openSubjects(kind: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('alerts')
      .select('subject')
      .where('kind', '=', kind)
      .where('closed', '=', false)
      .where('resolved_at', 'is', null)
      .execute();
    return rows.map((row) => row.subject);
  }

  async open(limit: number): Promise<AlertRecord[]> {
    const rows = await this.db
      .selectFrom('alerts')
      .selectAll()
      .where('closed', '=', false)
      .orderBy('raised_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toAlert);
  }

  async acknowledge(id: number, by: string, now: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('alerts')
      .select(['resolved_at', 'closed'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || toBoolean(row.closed)) return false;
    await this.db
      .updateTable('alerts')
      .set({ acknowledged_at: now, acknowledged_by: by, closed: row.resolved_at !== null })
      .where('id', '=', id)
      .execute();
    return true;
  }
}
