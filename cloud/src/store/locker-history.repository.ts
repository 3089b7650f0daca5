import type { Kysely, Selectable } from 'kysely';
import type { BridgeHubDatabase } from './bridge.repository';
import type { Database } from './database';
import { toDate } from './values';

/** One thing that happened to a locker, from whichever record keeps it. */
export type LockerHistoryRecord =
  | {
      source: 'booking';
      at: Date;
      transactionId: string;
      status: string;
      startAt: Date;
      endAt: Date;
      name: string;
    }
  | {
      source: 'booking_event';
      at: Date;
      transactionId: string;
      from: string;
      to: string;
      actor: string;
      reason: string;
      detail: string | null;
    }
  | {
      source: 'command';
      at: Date;
      op: string;
      status: string;
      error: string | null;
      transactionId: string | null;
    }
  | { source: 'controller'; at: Date; kind: string; payload: string }
  | { source: 'operator'; at: Date; type: string; message: string };

/** The logs that name a locker by location and number, each with the column that says when. */
interface LockerLogs {
  bridge_commands: 'issued_at';
  bridge_events: 'occurred_at';
  error_log: 'at';
}

/**
 * A locker's history (issue 17, audit trail): its bookings and their moves, the commands sent to
 * it, what its controller reported and what operators did to it, each read with its own index.
 */
export interface LockerHistoryRepository {
  /** The newest `limit` records of each source, for the caller to merge. */
  of(locationKey: string, lockerNumber: number, limit: number): Promise<LockerHistoryRecord[]>;
}

export class KyselyLockerHistoryRepository implements LockerHistoryRepository {
  private readonly db: Kysely<BridgeHubDatabase>;

  constructor(db: Kysely<Database>) {
    this.db = db as unknown as Kysely<BridgeHubDatabase>;
  }

  async of(locationKey: string, lockerNumber: number, limit: number): Promise<LockerHistoryRecord[]> {
    const bookings = await this.db
      .selectFrom('booking_lockers as bl')
      .innerJoin('lockers as l', 'l.id', 'bl.locker_id')
      .innerJoin('bookings as b', 'b.transaction_id', 'bl.transaction_id')
      .select([
        'b.transaction_id',
        'b.status',
        'b.created_at',
        'bl.start_at',
        'bl.end_at',
        'b.first_name',
        'b.last_name',
      ])
      .where('l.location_key', '=', locationKey)
      .where('l.number', '=', lockerNumber)
      .orderBy('b.created_at', 'desc')
      .limit(limit)
      .execute();
    const ids = bookings.map((row) => row.transaction_id);
    const moves =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('booking_events')
            .selectAll()
            .where('transaction_id', 'in', ids)
            .orderBy('at', 'desc')
            .limit(limit)
            .execute();
    const commands = await this.newestAtLocker(
      'bridge_commands',
      'issued_at',
      locationKey,
      lockerNumber,
      limit,
    );
    const events = await this.newestAtLocker(
      'bridge_events',
      'occurred_at',
      locationKey,
      lockerNumber,
      limit,
    );
    const operators = await this.newestAtLocker('error_log', 'at', locationKey, lockerNumber, limit);
    return [
      ...bookings.map((row) => ({
        source: 'booking' as const,
        at: toDate(row.created_at),
        transactionId: row.transaction_id,
        status: row.status,
        startAt: toDate(row.start_at),
        endAt: toDate(row.end_at),
        name: [row.first_name, row.last_name].filter(Boolean).join(' '),
      })),
      ...moves.map((row) => ({
        source: 'booking_event' as const,
        at: toDate(row.at),
        transactionId: row.transaction_id,
        from: row.from_status,
        to: row.to_status,
        actor: row.actor,
        reason: row.reason,
        detail: row.detail,
      })),
      ...commands.map((row) => ({
        source: 'command' as const,
        at: toDate(row.issued_at),
        op: row.op,
        status: row.status,
        error: row.error_message,
        transactionId: row.transaction_id,
      })),
      ...events.map((row) => ({
        source: 'controller' as const,
        at: toDate(row.occurred_at),
        kind: row.kind,
        payload: row.payload,
      })),
      ...operators.map((row) => ({
        source: 'operator' as const,
        at: toDate(row.at),
        type: row.type,
        message: row.message,
      })),
    ];
  }

  /** The newest `limit` rows of a log that names the locker by location and number, by `at`. */
  private async newestAtLocker<T extends keyof LockerLogs>(
    table: T,
    at: LockerLogs[T],
    locationKey: string,
    lockerNumber: number,
    limit: number,
  ): Promise<Selectable<BridgeHubDatabase[T]>[]> {
    const rows = await this.db
      .selectFrom(table as keyof LockerLogs)
      .selectAll()
      .where('location_key', '=', locationKey)
      .where('locker_id', '=', lockerNumber)
      .orderBy(at, 'desc')
      .limit(limit)
      .execute();
    return rows as Selectable<BridgeHubDatabase[T]>[];
  }
}
