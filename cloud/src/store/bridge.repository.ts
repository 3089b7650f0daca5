import { sql, type ColumnType, type Kysely, type Selectable } from 'kysely';
import type { CommandOp, Occupancy, ResultMessage } from '@deposito/protocol/bridge/v1';
import type { Database, Instant, NullableInstant } from './database';
import type { SqlDialect } from './migrate';
import { fromJson, toBoolean, toCount, toDate, toDateOrNull } from './values';
import { PreparedQuery } from './prepared-query';
import { writeTransaction } from './write-transaction';

type Flag = ColumnType<boolean | number, boolean, boolean>;

interface BridgeTokenTable {
  location_key: string;
  token_hash: string;
  issued_at: Instant;
}

interface BridgeCommandTable {
  id: string;
  location_key: string;
  op: string;
  locker_id: number | null;
  params: string | null;
  transaction_id: string | null;
  issued_at: Instant;
  expires_at: Instant;
  status: string;
  attempts: ColumnType<number, number | undefined, number>;
  last_sent_at: NullableInstant;
  acked_at: NullableInstant;
  completed_at: NullableInstant;
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The order the commands were added in (migration 20251128100000_bridge-command-order). */
  seq: ColumnType<number, number, never>;
}

interface BridgeLockerStateTable {
  location_key: string;
  locker_id: number;
  occupancy: string;
  door_open: Flag;
  code: number | null;
  observed_at: Instant;
  updated_at: Instant;
}

interface BridgeEventTable {
  id: string;
  location_key: string;
  seq: number;
  kind: string;
  locker_id: number;
  occurred_at: Instant;
  received_at: Instant;
  payload: string;
}

interface BridgeConnectionTable {
  location_key: string;
  process_id: string;
  bridge_version: string | null;
  connected_at: Instant;
  heartbeat_at: Instant;
}

/** One cloud process's hub (migration 20251125130000_bridge-liveness). */
interface CloudProcessTable {
  process_id: string;
  host: string;
  pid: number;
  started_at: Instant;
  heartbeat_at: Instant;
}

/** The tables of migrations 20251122140000_bridge-hub and 20251125130000_bridge-liveness. */
export interface BridgeHubDatabase extends Database {
  bridge_tokens: BridgeTokenTable;
  bridge_commands: BridgeCommandTable;
  bridge_locker_states: BridgeLockerStateTable;
  bridge_events: BridgeEventTable;
  bridge_connections: BridgeConnectionTable;
  cloud_processes: CloudProcessTable;
}

/** The error a command the hub gave up on is settled with (status `expired`). */
export const CANCELLED_COMMAND_ERROR = {
  code: 'bridge/cancelled',
  message: 'Not confirmed in time: cancelled by the cloud, it will not be sent again',
} as const;

export const COMMAND_STATUSES = [
  'queued',
  'sent',
  'acked',
  'succeeded',
  'failed',
  'expired',
  'unknown',
] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
/** Not settled yet: the hub (re)sends these to the location's bridge. */
export const OPEN_COMMAND_STATUSES = ['queued', 'sent', 'acked'] as const satisfies readonly CommandStatus[];

const MAX_UNCONFIRMED_CANCELLATIONS = 100;
const HEARTBEAT_CHUNK = 500;

export function isSettledStatus(status: CommandStatus): boolean {
  return !(OPEN_COMMAND_STATUSES as readonly string[]).includes(status);
}

const RESULT_STATUS: Record<ResultMessage['status'], CommandStatus> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  EXPIRED: 'expired',
  UNKNOWN: 'unknown',
};

export interface NewBridgeCommand {
  id: string;
  locationKey: string;
  op: CommandOp;
  lockerId: number | null;
  params: Record<string, unknown> | null;
  /** The booking a `book` or `unbook` belongs to. */
  transactionId: string | null;
  issuedAt: Date;
  expiresAt: Date;
}

export interface BridgeCommandRecord extends NewBridgeCommand {
  status: CommandStatus;
  attempts: number;
  lastSentAt: Date | null;
  ackedAt: Date | null;
  completedAt: Date | null;
  /** The bridge's last result message for this command. */
  result: ResultMessage | null;
  error: { code: string; message: string } | null;
}

export interface LockerStateRecord {
  lockerId: number;
  occupancy: Occupancy;
  doorOpen: boolean;
  code: number | null;
  observedAt: Date;
}

/** A change to one locker seen at `observedAt`; fields left out keep their stored value. */
export interface LockerStateChange {
  lockerId: number;
  occupancy?: Occupancy;
  doorOpen?: boolean;
  code?: number | null;
  observedAt: Date;
}

export interface StoredBridgeEvent {
  id: string;
  locationKey: string;
  seq: number;
  kind: string;
  lockerId: number;
  occurredAt: Date;
  receivedAt: Date;
  payload: unknown;
}

export interface BridgeConnectionRecord {
  locationKey: string;
  processId: string;
  bridgeVersion: string | null;
  connectedAt: Date;
  heartbeatAt: Date;
}

/** A cloud process's hub, as it records itself for the others. */
export interface CloudProcessRecord {
  processId: string;
  host: string;
  pid: number;
  startedAt: Date;
}

export type ResultOutcome =
  | { applied: true; command: BridgeCommandRecord }
  /** Unknown command, another location's, or a repeat of a result already stored. */
  | { applied: false; command: BridgeCommandRecord | null };

export interface BridgeRepository {
  tokenHash(locationKey: string): Promise<string | null>;
  /** When the location's current token was issued; null when it has none. */
  tokenIssuedAt(locationKey: string): Promise<Date | null>;
  /** Replaces the location's token hash; false when the location does not exist. */
  setTokenHash(locationKey: string, tokenHash: string, now: Date): Promise<boolean>;
  /** Sets the token hash of a location that has none; false when it has one (kept) or does not exist. */
  addTokenHashIfAbsent(locationKey: string, tokenHash: string, now: Date): Promise<boolean>;
  /** Deletes the location's token if its hash is `tokenHash`; true when it did. */
  removeTokenHash(locationKey: string, tokenHash: string): Promise<boolean>;
  /** Deletes the location's token, whatever it is; true when there was one. */
  removeToken(locationKey: string): Promise<boolean>;

  /** Adds a command to the outbox as `queued`; false when that id exists already (nothing changes). */
  insertCommand(command: NewBridgeCommand): Promise<boolean>;
  getCommand(id: string): Promise<BridgeCommandRecord | null>;
  /** Commands of the location not settled yet, in the order they were added. */
  openCommands(locationKey: string, limit: number): Promise<BridgeCommandRecord[]>;
  /** The booking's commands, in the order they were added. */
  commandsForTransaction(transactionId: string): Promise<BridgeCommandRecord[]>;
  /**
   * The hub is about to write the command to a socket: queued becomes sent and the attempt is
   * counted. False when the command was settled meanwhile (it must not be sent then).
   */
  markSent(id: string, now: Date): Promise<boolean>;
  /** The bridge stored the command: queued or sent becomes acked. */
  markAcked(locationKey: string, id: string, now: Date): Promise<boolean>;
  /**
   * Stores a bridge's result once: a repeated result changes nothing; an UNKNOWN outcome is replaced
   * by a later reconciled one.
   */
  recordResult(locationKey: string, result: ResultMessage, now: Date): Promise<ResultOutcome>;
  /** Settles an open command without a result from the bridge (refused, superseded, given up). */
  settle(
    id: string,
    status: Extract<CommandStatus, 'failed' | 'expired' | 'unknown'>,
    error: { code: string; message: string },
    now: Date,
  ): Promise<boolean>;
  /**
   * The hub gave up on an open command: settled `expired` (CANCELLED_COMMAND_ERROR), so it is never
   * (re)sent; a result the bridge reports later is still recorded. The record as cancelled, or null
   * when the command was settled already.
   */
  cancelOpen(id: string, now: Date): Promise<BridgeCommandRecord | null>;
  /** Cancelled commands that were sent, have no result and expire after `expiringAfter`: the bridge is told again. */
  unconfirmedCancellations(locationKey: string, expiringAfter: Date): Promise<string[]>;
  /** Takes back a command that has not left the cloud yet (settled `failed`); false once it has. */
  withdrawQueued(id: string, reason: { code: string; message: string }, now: Date): Promise<boolean>;
  /** Commands that never reached a socket and expired: settled `expired` (they certainly did not run). */
  expireUndelivered(now: Date): Promise<string[]>;
  /** Delivered commands with no result since `issuedBefore`: settled `unknown`. */
  abandonUnanswered(issuedBefore: Date, now: Date): Promise<string[]>;
  countCommandsByStatus(): Promise<Record<CommandStatus, number>>;
  /** Commands that ended `failed` or `expired`, issued since `since`, oldest first (the alerts). */
  failedCommandsSince(since: Date, limit: number): Promise<BridgeCommandRecord[]>;
  oldestOpenCommandIssuedAt(): Promise<Date | null>;

  lockerStates(locationKey: string): Promise<LockerStateRecord[]>;
  /** Applies observations in order; one older than what is stored for that locker is ignored. */
  applyLockerStates(locationKey: string, changes: readonly LockerStateChange[], now: Date): Promise<void>;

  /** Stores an event once; false when its id was stored before. */
  insertEvent(event: Omit<StoredBridgeEvent, 'receivedAt'>, now: Date): Promise<boolean>;
  events(locationKey: string, limit: number): Promise<StoredBridgeEvent[]>;
  /** When each of the lockers' doors last reported opening (lockers never reported are absent). */
  doorsOpenedAt(locationKey: string, lockerIds: readonly number[]): Promise<Map<number, Date>>;
  /** Deletes the events stored before `storedBefore`; answers how many. */
  deleteEventsBefore(storedBefore: Date): Promise<number>;

  /** Records (or refreshes) a cloud process's hub: its heartbeat vouches for its connections. */
  heartbeatProcess(process: CloudProcessRecord, now: Date): Promise<void>;
  /** A hub stopping: its process and the connections it held are gone. */
  removeProcess(processId: string): Promise<void>;
  /**
   * Deletes processes whose heartbeat is not later than `staleBefore` and, given `predecessorsOf`,
   * the earlier lives of a process (same host and pid, not among `keep`), then every connection
   * whose process is gone. Answers the locations whose connection was removed.
   */
  removeDeadProcesses(
    staleBefore: Date,
    predecessorsOf?: { host: string; pid: number; keep: readonly string[] },
    /** Processes known dead whatever their heartbeat says (their pid no longer runs on their host). */
    deadProcessIds?: readonly string[],
  ): Promise<string[]>;
  /** The processes recorded for `host` (the caller checks which of their pids still run). */
  processesOnHost(host: string): Promise<CloudProcessRecord[]>;
  /**
   * Records that `processId` holds the location's bridge socket, unless another process holds a
   * live one (heartbeat later than `liveAfter`, its process too): false then, nothing changes.
   */
  claimConnection(
    locationKey: string,
    processId: string,
    bridgeVersion: string | null,
    now: Date,
    liveAfter: Date,
  ): Promise<boolean>;
  /**
   * Refreshes the heartbeat of the connections this process holds, recording any that went missing;
   * never takes over a location another process has claimed since.
   */
  heartbeatConnections(
    processId: string,
    held: ReadonlyArray<{ locationKey: string; bridgeVersion: string | null }>,
    now: Date,
  ): Promise<void>;
  releaseConnection(locationKey: string, processId: string): Promise<void>;
  /**
   * The location's bridge connection if both its heartbeat and its process's are later than
   * `freshAfter`, held by another process than `exceptProcessId`.
   */
  liveConnection(
    locationKey: string,
    freshAfter: Date,
    exceptProcessId?: string,
  ): Promise<BridgeConnectionRecord | null>;
  liveConnections(freshAfter: Date): Promise<BridgeConnectionRecord[]>;

  /** PostgreSQL: the channel this schema's hubs LISTEN on (one per schema, so test schemas stay apart). */
  notificationChannel(): Promise<string>;
  /** PostgreSQL: NOTIFY the hubs of every process; delivered after the current statement commits. */
  notify(payload: string): Promise<void>;
}

type CommandRow = Selectable<BridgeCommandTable>;

function toCommand(row: CommandRow): BridgeCommandRecord {
  return {
    id: row.id,
    locationKey: row.location_key,
    op: row.op as CommandOp,
    lockerId: row.locker_id,
    params: row.params === null ? null : fromJson<Record<string, unknown>>(row.params),
    transactionId: row.transaction_id,
    issuedAt: toDate(row.issued_at),
    expiresAt: toDate(row.expires_at),
    status: row.status as CommandStatus,
    attempts: Number(row.attempts),
    lastSentAt: toDateOrNull(row.last_sent_at),
    ackedAt: toDateOrNull(row.acked_at),
    completedAt: toDateOrNull(row.completed_at),
    result: row.result === null ? null : fromJson<ResultMessage>(row.result),
    error:
      row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? row.error_code },
  };
}

function toConnection(row: {
  location_key: string;
  process_id: string;
  bridge_version: string | null;
  connected_at: Date | string;
  heartbeat_at: Date | string;
}): BridgeConnectionRecord {
  return {
    locationKey: row.location_key,
    processId: row.process_id,
    bridgeVersion: row.bridge_version,
    connectedAt: toDate(row.connected_at),
    heartbeatAt: toDate(row.heartbeat_at),
  };
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

export class KyselyBridgeRepository implements BridgeRepository {
  private readonly db: Kysely<BridgeHubDatabase>;
  private channel: Promise<string> | null = null;

  /** The statements on an operator's wait for a locker command, prepared once (prepared-query.ts). */
  private readonly prepared: ReturnType<typeof commandQueries>;

  constructor(
    db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {
    this.db = db as unknown as Kysely<BridgeHubDatabase>;
    this.prepared = commandQueries(this.db);
  }

  async tokenIssuedAt(locationKey: string): Promise<Date | null> {
    const token = await this.token(locationKey);
    return token ? toDate(token.issued_at) : null;
  }

  async tokenHash(locationKey: string): Promise<string | null> {
    return (await this.token(locationKey))?.token_hash ?? null;
  }

  /** The location's token row, if it has one: its hash and when it was issued. */
  private token(locationKey: string) {
    return this.db
      .selectFrom('bridge_tokens')
      .select(['token_hash', 'issued_at'])
      .where('location_key', '=', locationKey)
      .executeTakeFirst();
  }

  async setTokenHash(locationKey: string, tokenHash: string, now: Date): Promise<boolean> {
    try {
      await this.db
        .insertInto('bridge_tokens')
        .values({ location_key: locationKey, token_hash: tokenHash, issued_at: now })
        .onConflict((oc) => oc.column('location_key').doUpdateSet({ token_hash: tokenHash, issued_at: now }))
        .execute();
      return true;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  async addTokenHashIfAbsent(locationKey: string, tokenHash: string, now: Date): Promise<boolean> {
    try {
      const result = await this.db
        .insertInto('bridge_tokens')
        .values({ location_key: locationKey, token_hash: tokenHash, issued_at: now })
        .onConflict((oc) => oc.column('location_key').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    } catch (error) {
      if (isForeignKeyViolation(error)) return false;
      throw error;
    }
  }

  async removeTokenHash(locationKey: string, tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('bridge_tokens')
      .where('location_key', '=', locationKey)
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async removeToken(locationKey: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('bridge_tokens')
      .where('location_key', '=', locationKey)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertCommand(command: NewBridgeCommand): Promise<boolean> {
    const result = await this.prepared.insertCommand.execute({
      id: command.id,
      locationKey: command.locationKey,
      op: command.op,
      lockerId: command.lockerId,
      params: command.params === null ? null : JSON.stringify(command.params),
      transactionId: command.transactionId,
      issuedAt: command.issuedAt,
      expiresAt: command.expiresAt,
    });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async getCommand(id: string): Promise<BridgeCommandRecord | null> {
    const row = await this.db
      .selectFrom('bridge_commands')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toCommand(row) : null;
  }

  async failedCommandsSince(since: Date, limit: number): Promise<BridgeCommandRecord[]> {
    const rows = await this.db
      .selectFrom('bridge_commands')
      .selectAll()
      .where('status', 'in', ['failed', 'expired'])
      .where('issued_at', '>=', since)
      .orderBy('issued_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toCommand);
  }

  async openCommands(locationKey: string, limit: number): Promise<BridgeCommandRecord[]> {
    return (await this.prepared.openCommands.rows({ locationKey, limit })).map(toCommand);
  }

  async commandsForTransaction(transactionId: string): Promise<BridgeCommandRecord[]> {
    const rows = await this.db
      .selectFrom('bridge_commands')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .orderBy('seq')
      .orderBy('id')
      .execute();
    return rows.map(toCommand);
  }

  async markSent(id: string, now: Date): Promise<boolean> {
    const result = await this.prepared.markSent.execute({ id, now });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async markAcked(locationKey: string, id: string, now: Date): Promise<boolean> {
    const result = await this.prepared.markAcked.execute({ id, locationKey, now });
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /**
   * One conditional update in the usual case (the command is open, or UNKNOWN and this result says
   * more): atomic on its own in both databases, where a read-then-write transaction cost four
   * statements on the operator's wait (command round trip benchmark). Only a result that changes
   * nothing reads the command to say why.
   */
  async recordResult(locationKey: string, result: ResultMessage, now: Date): Promise<ResultOutcome> {
    const db = this.db;
    const settle = result.status === 'UNKNOWN' ? this.prepared.settleOpen : this.prepared.settleOpenOrUnknown;
    const [updated] = await settle.rows({
      id: result.commandId,
      locationKey,
      status: RESULT_STATUS[result.status],
      result: JSON.stringify(result),
      completedAt: new Date(result.completedAt),
      now,
      errorCode: result.error?.code ?? null,
      errorMessage: result.error?.message ?? null,
    });
    if (updated) return { applied: true, command: toCommand(updated) };
    const row = await db
      .selectFrom('bridge_commands')
      .selectAll()
      .where('id', '=', result.commandId)
      .executeTakeFirst();
    if (!row || row.location_key !== locationKey) return { applied: false, command: null };
    return { applied: false, command: toCommand(row) };
  }

  async settle(
    id: string,
    status: Extract<CommandStatus, 'failed' | 'expired' | 'unknown'>,
    error: { code: string; message: string },
    now: Date,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('bridge_commands')
      .set({ status, completed_at: now, error_code: error.code, error_message: error.message })
      .where('id', '=', id)
      .where('status', 'in', [...OPEN_COMMAND_STATUSES])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async cancelOpen(id: string, now: Date): Promise<BridgeCommandRecord | null> {
    const row = await this.db
      .updateTable('bridge_commands')
      .set({
        status: 'expired',
        completed_at: now,
        error_code: CANCELLED_COMMAND_ERROR.code,
        error_message: CANCELLED_COMMAND_ERROR.message,
      })
      .where('id', '=', id)
      .where('status', 'in', [...OPEN_COMMAND_STATUSES])
      .returningAll()
      .executeTakeFirst();
    return row ? toCommand(row) : null;
  }

  async unconfirmedCancellations(locationKey: string, expiringAfter: Date): Promise<string[]> {
    const rows = await this.db
      .selectFrom('bridge_commands')
      .select('id')
      .where('location_key', '=', locationKey)
      .where('status', '=', 'expired')
      .where('error_code', '=', CANCELLED_COMMAND_ERROR.code)
      .where('result', 'is', null)
      .where('last_sent_at', 'is not', null)
      .where('expires_at', '>', expiringAfter)
      .orderBy('issued_at')
      .limit(MAX_UNCONFIRMED_CANCELLATIONS)
      .execute();
    return rows.map((row) => row.id);
  }

  async withdrawQueued(id: string, reason: { code: string; message: string }, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('bridge_commands')
      .set({ status: 'failed', completed_at: now, error_code: reason.code, error_message: reason.message })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async expireUndelivered(now: Date): Promise<string[]> {
    const rows = await this.db
      .updateTable('bridge_commands')
      .set({
        status: 'expired',
        completed_at: now,
        error_code: 'bridge/command_expired',
        error_message: 'The command expired before it reached the location',
      })
      .where('status', '=', 'queued')
      .where('expires_at', '<=', now)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async abandonUnanswered(issuedBefore: Date, now: Date): Promise<string[]> {
    const rows = await this.db
      .updateTable('bridge_commands')
      .set({
        status: 'unknown',
        completed_at: now,
        error_code: 'bridge/no_result',
        error_message: 'The location never reported a result for this command',
      })
      .where('status', 'in', ['sent', 'acked'])
      .where('issued_at', '<', issuedBefore)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  async countCommandsByStatus(): Promise<Record<CommandStatus, number>> {
    const rows = await this.db
      .selectFrom('bridge_commands')
      .select((eb) => ['status', eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(COMMAND_STATUSES.map((status) => [status, 0])) as Record<
      CommandStatus,
      number
    >;
    for (const row of rows) counts[row.status as CommandStatus] = toCount(row.n as string | number);
    return counts;
  }

  async oldestOpenCommandIssuedAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('bridge_commands')
      .select('issued_at')
      .where('status', 'in', [...OPEN_COMMAND_STATUSES])
      .orderBy('issued_at')
      .limit(1)
      .executeTakeFirst();
    return row ? toDate(row.issued_at) : null;
  }

  async lockerStates(locationKey: string): Promise<LockerStateRecord[]> {
    const rows = await this.db
      .selectFrom('bridge_locker_states')
      .selectAll()
      .where('location_key', '=', locationKey)
      .orderBy('locker_id')
      .execute();
    return rows.map((row) => ({
      lockerId: row.locker_id,
      occupancy: row.occupancy as Occupancy,
      doorOpen: toBoolean(row.door_open),
      code: row.code,
      observedAt: toDate(row.observed_at),
    }));
  }

  async applyLockerStates(
    locationKey: string,
    changes: readonly LockerStateChange[],
    now: Date,
  ): Promise<void> {
    if (changes.length === 0) return;
    await writeTransaction(this.db, this.dialect, async (trx) => {
      const db = trx as unknown as Kysely<BridgeHubDatabase>;
      let query = db
        .selectFrom('bridge_locker_states')
        .selectAll()
        .where('location_key', '=', locationKey)
        .where('locker_id', 'in', [...new Set(changes.map((c) => c.lockerId))]);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const current = new Map(
        (await query.execute()).map((row) => [
          row.locker_id,
          {
            occupancy: row.occupancy,
            door_open: toBoolean(row.door_open),
            code: row.code,
            observed_at: toDate(row.observed_at),
          },
        ]),
      );
      for (const change of changes) {
        const known = current.get(change.lockerId);
        if (known && known.observed_at > change.observedAt) continue;
        const next = {
          occupancy: change.occupancy ?? known?.occupancy ?? 'unknown',
          door_open: change.doorOpen ?? known?.door_open ?? false,
          code: change.code !== undefined ? change.code : (known?.code ?? null),
          observed_at: change.observedAt,
        };
        current.set(change.lockerId, next);
        await db
          .insertInto('bridge_locker_states')
          .values({ location_key: locationKey, locker_id: change.lockerId, ...next, updated_at: now })
          .onConflict((oc) =>
            oc.columns(['location_key', 'locker_id']).doUpdateSet({ ...next, updated_at: now }),
          )
          .execute();
      }
    });
  }

  async deleteEventsBefore(storedBefore: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('bridge_events')
      .where('received_at', '<', storedBefore)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async insertEvent(event: Omit<StoredBridgeEvent, 'receivedAt'>, now: Date): Promise<boolean> {
    const result = await this.db
      .insertInto('bridge_events')
      .values({
        id: event.id,
        location_key: event.locationKey,
        seq: event.seq,
        kind: event.kind,
        locker_id: event.lockerId,
        occurred_at: event.occurredAt,
        received_at: now,
        payload: JSON.stringify(event.payload),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async doorsOpenedAt(locationKey: string, lockerIds: readonly number[]): Promise<Map<number, Date>> {
    if (lockerIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('bridge_events')
      .select(['locker_id', (eb) => eb.fn.max('occurred_at').as('opened_at')])
      .where('location_key', '=', locationKey)
      .where('kind', '=', 'door')
      .where('locker_id', 'in', [...lockerIds])
      // The event's payload as the bridge sent it (protocol's door event): {"door":"opened", …}.
      .where('payload', 'like', '%"door":"opened"%')
      .groupBy('locker_id')
      .execute();
    return new Map(rows.map((row) => [row.locker_id, toDate(row.opened_at as Date | string)]));
  }

  async events(locationKey: string, limit: number): Promise<StoredBridgeEvent[]> {
    const rows = await this.db
      .selectFrom('bridge_events')
      .selectAll()
      .where('location_key', '=', locationKey)
      .orderBy('received_at')
      .orderBy('seq')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      locationKey: row.location_key,
      seq: Number(row.seq),
      kind: row.kind,
      lockerId: row.locker_id,
      occurredAt: toDate(row.occurred_at),
      receivedAt: toDate(row.received_at),
      payload: fromJson<unknown>(row.payload),
    }));
  }

  async heartbeatProcess(process: CloudProcessRecord, now: Date): Promise<void> {
    await this.db
      .insertInto('cloud_processes')
      .values({
        process_id: process.processId,
        host: process.host,
        pid: process.pid,
        started_at: process.startedAt,
        heartbeat_at: now,
      })
      .onConflict((oc) => oc.column('process_id').doUpdateSet({ heartbeat_at: now }))
      .execute();
  }

  async removeProcess(processId: string): Promise<void> {
    await this.db.deleteFrom('bridge_connections').where('process_id', '=', processId).execute();
    await this.db.deleteFrom('cloud_processes').where('process_id', '=', processId).execute();
  }

  async processesOnHost(host: string): Promise<CloudProcessRecord[]> {
    const rows = await this.db
      .selectFrom('cloud_processes')
      .select(['process_id', 'host', 'pid', 'started_at'])
      .where('host', '=', host)
      .execute();
    return rows.map((row) => ({
      processId: row.process_id,
      host: row.host,
      pid: Number(row.pid),
      startedAt: toDate(row.started_at),
    }));
  }

  async removeDeadProcesses(
    staleBefore: Date,
    predecessorsOf?: { host: string; pid: number; keep: readonly string[] },
    deadProcessIds: readonly string[] = [],
  ): Promise<string[]> {
    await this.db
      .deleteFrom('cloud_processes')
      .where((eb) =>
        eb.or([
          eb('heartbeat_at', '<=', staleBefore),
          ...(deadProcessIds.length > 0 ? [eb('process_id', 'in', [...deadProcessIds])] : []),
          ...(predecessorsOf && predecessorsOf.keep.length > 0
            ? [
                eb.and([
                  eb('host', '=', predecessorsOf.host),
                  eb('pid', '=', predecessorsOf.pid),
                  eb('process_id', 'not in', [...predecessorsOf.keep]),
                ]),
              ]
            : []),
        ]),
      )
      .execute();
    const removed = await this.db
      .deleteFrom('bridge_connections')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('cloud_processes')
              .select('cloud_processes.process_id')
              .whereRef('cloud_processes.process_id', '=', 'bridge_connections.process_id'),
          ),
        ),
      )
      .returning('location_key')
      .execute();
    return removed.map((row) => row.location_key);
  }

  async claimConnection(
    locationKey: string,
    processId: string,
    bridgeVersion: string | null,
    now: Date,
    liveAfter: Date,
  ): Promise<boolean> {
    const fields = {
      process_id: processId,
      bridge_version: bridgeVersion,
      connected_at: now,
      heartbeat_at: now,
    };
    const claimed = await this.db
      .insertInto('bridge_connections')
      .values({ location_key: locationKey, ...fields })
      .onConflict((oc) =>
        oc
          .column('location_key')
          .doUpdateSet(fields)
          // Taken over only from this process, or from a holder whose evidence of life has lapsed.
          .where((eb) =>
            eb.or([
              eb('bridge_connections.process_id', '=', processId),
              eb('bridge_connections.heartbeat_at', '<=', liveAfter),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('cloud_processes')
                    .select('cloud_processes.process_id')
                    .whereRef('cloud_processes.process_id', '=', 'bridge_connections.process_id')
                    .where('cloud_processes.heartbeat_at', '>', liveAfter),
                ),
              ),
            ]),
          ),
      )
      .returning('location_key')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  async heartbeatConnections(
    processId: string,
    held: ReadonlyArray<{ locationKey: string; bridgeVersion: string | null }>,
    now: Date,
  ): Promise<void> {
    // One statement per chunk in the usual case (a process may hold a thousand sites, every few
    // seconds); only a claim that went missing is inserted on its own.
    for (let start = 0; start < held.length; start += HEARTBEAT_CHUNK) {
      const chunk = held.slice(start, start + HEARTBEAT_CHUNK);
      const refreshed = await this.db
        .updateTable('bridge_connections')
        .set({ heartbeat_at: now })
        .where('process_id', '=', processId)
        .where(
          'location_key',
          'in',
          chunk.map((connection) => connection.locationKey),
        )
        .returning('location_key')
        .execute();
      const present = new Set(refreshed.map((row) => row.location_key));
      for (const { locationKey, bridgeVersion } of chunk) {
        if (present.has(locationKey)) continue;
        await this.db
          .insertInto('bridge_connections')
          .values({
            location_key: locationKey,
            process_id: processId,
            bridge_version: bridgeVersion,
            connected_at: now,
            heartbeat_at: now,
          })
          .onConflict((oc) =>
            oc
              .column('location_key')
              .doUpdateSet({ heartbeat_at: now })
              .where('bridge_connections.process_id', '=', processId),
          )
          .execute();
      }
    }
  }

  async releaseConnection(locationKey: string, processId: string): Promise<void> {
    await this.db
      .deleteFrom('bridge_connections')
      .where('location_key', '=', locationKey)
      .where('process_id', '=', processId)
      .execute();
  }

  async liveConnection(
    locationKey: string,
    freshAfter: Date,
    exceptProcessId?: string,
  ): Promise<BridgeConnectionRecord | null> {
    let query = this.liveConnectionsQuery(freshAfter).where('c.location_key', '=', locationKey);
    if (exceptProcessId !== undefined) query = query.where('c.process_id', '!=', exceptProcessId);
    const row = await query.executeTakeFirst();
    return row ? toConnection(row) : null;
  }

  async liveConnections(freshAfter: Date): Promise<BridgeConnectionRecord[]> {
    const rows = await this.liveConnectionsQuery(freshAfter).orderBy('c.location_key').execute();
    return rows.map(toConnection);
  }

  /** Connections whose socket answered pings lately, held by a process that is still heartbeating. */
  private liveConnectionsQuery(freshAfter: Date) {
    return this.db
      .selectFrom('bridge_connections as c')
      .innerJoin('cloud_processes as p', 'p.process_id', 'c.process_id')
      .selectAll('c')
      .where('c.heartbeat_at', '>', freshAfter)
      .where('p.heartbeat_at', '>', freshAfter);
  }

  notificationChannel(): Promise<string> {
    this.channel ??=
      this.dialect === 'postgres'
        ? sql<{ schema: string }>`select current_schema() as schema`
            .execute(this.db)
            .then(({ rows }) => `deposito_bridge_${rows[0]?.schema ?? 'public'}`)
        : Promise.resolve('deposito_bridge');
    return this.channel;
  }

  async notify(payload: string): Promise<void> {
    if (this.dialect !== 'postgres') return;
    const channel = await this.notificationChannel();
    await sql`select pg_notify(${channel}, ${payload})`.execute(this.db);
  }
}

type SettleParams = {
  id: string;
  locationKey: string;
  status: string;
  result: string;
  completedAt: Date;
  now: Date;
  errorCode: string | null;
  errorMessage: string | null;
};

const SETTLE_PARAMS = [
  'id',
  'locationKey',
  'status',
  'result',
  'completedAt',
  'now',
  'errorCode',
  'errorMessage',
] as const;

function commandQueries(db: Kysely<BridgeHubDatabase>) {
  /**
   * Settles a command whose status is one of `from`, or that the hub cancelled and has no result yet
   * (it may have run before the cancel reached the bridge: what happened is recorded), with a
   * bridge's result; the row as settled.
   */
  const settleFrom = (from: readonly CommandStatus[]) =>
    new PreparedQuery(db, SETTLE_PARAMS, (q, p: SettleParams) =>
      q
        .updateTable('bridge_commands')
        .set({
          status: p.status,
          result: p.result,
          completed_at: p.completedAt,
          acked_at: sql<Date>`coalesce(acked_at, ${p.now})`,
          error_code: p.errorCode,
          error_message: p.errorMessage,
        })
        .where('id', '=', p.id)
        .where('location_key', '=', p.locationKey)
        .where((eb) =>
          eb.or([
            eb('status', 'in', [...from]),
            eb.and([
              eb('status', '=', 'expired'),
              eb('error_code', '=', CANCELLED_COMMAND_ERROR.code),
              eb('result', 'is', null),
            ]),
          ]),
        )
        .returningAll(),
    );
  return {
    insertCommand: new PreparedQuery(
      db,
      ['id', 'locationKey', 'op', 'lockerId', 'params', 'transactionId', 'issuedAt', 'expiresAt'],
      (
        q,
        p: {
          id: string;
          locationKey: string;
          op: string;
          lockerId: number | null;
          params: string | null;
          transactionId: string | null;
          issuedAt: Date;
          expiresAt: Date;
        },
      ) =>
        q
          .insertInto('bridge_commands')
          .values({
            id: p.id,
            location_key: p.locationKey,
            op: p.op,
            locker_id: p.lockerId,
            params: p.params,
            transaction_id: p.transactionId,
            issued_at: p.issuedAt,
            expires_at: p.expiresAt,
            status: 'queued',
            attempts: 0,
            seq: sql<number>`(select coalesce(max(seq), 0) + 1 from bridge_commands)`,
          })
          .onConflict((oc) => oc.column('id').doNothing()),
    ),
    markSent: new PreparedQuery(db, ['id', 'now'], (q, p: { id: string; now: Date }) =>
      q
        .updateTable('bridge_commands')
        .set((eb) => ({
          status: sql<string>`case when ${eb.ref('status')} = 'queued' then 'sent' else ${eb.ref('status')} end`,
          attempts: eb('attempts', '+', 1),
          last_sent_at: p.now,
        }))
        .where('id', '=', p.id)
        .where('status', 'in', [...OPEN_COMMAND_STATUSES]),
    ),
    openCommands: new PreparedQuery(
      db,
      ['locationKey', 'limit'],
      (q, p: { locationKey: string; limit: number }) =>
        q
          .selectFrom('bridge_commands')
          .selectAll()
          .where('location_key', '=', p.locationKey)
          .where('status', 'in', [...OPEN_COMMAND_STATUSES])
          .orderBy('seq')
          .orderBy('id')
          .limit(p.limit),
    ),
    markAcked: new PreparedQuery(
      db,
      ['id', 'locationKey', 'now'],
      (q, p: { id: string; locationKey: string; now: Date }) =>
        q
          .updateTable('bridge_commands')
          .set({ status: 'acked', acked_at: p.now })
          .where('id', '=', p.id)
          .where('location_key', '=', p.locationKey)
          .where('status', 'in', ['queued', 'sent']),
    ),
    // A settled command keeps its first result; only an UNKNOWN one may be settled by a later result.
    settleOpen: settleFrom(OPEN_COMMAND_STATUSES),
    settleOpenOrUnknown: settleFrom([...OPEN_COMMAND_STATUSES, 'unknown']),
  };
}
