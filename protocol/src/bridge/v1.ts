// Cloud ⇄ edge-bridge WebSocket protocol, version 1.
//
// Released wire format: never edit a shape here in place. A change that an existing bridge or hub
// could not read goes into `v2.ts` beside this file, and the hub speaks both while bridges upgrade.
//
// Connection
//   The bridge opens a WebSocket to `{cloudUrl}${BRIDGE_WS_PATH}` (ws:// or wss://) with
//     Authorization: Bearer <bridge token>                    (BRIDGE_AUTH_HEADER, BRIDGE_AUTH_SCHEME)
//     X-Deposito-Location: <location key>                     (BRIDGE_LOCATION_HEADER)
//   Clients that cannot set headers may pass the location as `?location=<key>` (BRIDGE_LOCATION_QUERY);
//   the token always travels in the Authorization header, never in the URL (URLs end up in logs).
//   The hub refuses a bad token or a token not issued for that location with HTTP 401 or 403 on the
//   upgrade; the bridge then stops reconnecting and tells the technician. Once open:
//   1. the bridge sends `hello` (who it is and what it holds in its buffer);
//   2. the hub sends `command`s; the bridge answers each with `ack` once the command is stored on disk,
//      then later with a `result` (possibly more than one: an UNKNOWN result may be followed by a
//      `reconciled` one once a state poll shows what happened);
//   3. the bridge sends buffered items (`result`, `event`, `snapshot`) in increasing `seq` order and
//      resends every item the hub has not acknowledged after each reconnect; the hub answers with
//      `delivered` listing the seqs it has stored, and only then does the bridge delete them.
//      The hub must therefore treat items idempotently: by `seq` per location (and `event.id`).
//   Added later, optional on both sides (a bridge lists what it understands in `hello.features`; a hub
//   sends these only to a bridge that lists them, since an older one answers them with `rejected`):
//   4. `hello-ack`: the hub has accepted the hello (the session is live). The bridge resets its
//      reconnect backoff on it (or on any other message from the hub on that connection).
//   5. `cancel`: the hub gave up on a command (its request timed out, the operator is told so). A
//      command the bridge has not yet sent to the controller is never sent: it is answered EXPIRED
//      with error `command/cancelled`. One already sent cannot be called back; its result follows as
//      usual. A cancel for an id the bridge has not received yet makes that id EXPIRED on arrival.
//   Messages are JSON text frames of at most BRIDGE_MAX_MESSAGE_BYTES.
//
// The schemas use zod/mini (functions instead of methods) so the bridge daemon loads little code;
// they accept and refuse exactly what the classic zod ones they replaced did, with the same issues.
import * as z from 'zod/mini';
import { useEnglishZodMessages } from '../zod-english-messages';

useEnglishZodMessages();

export const BRIDGE_PROTOCOL_VERSION = 1 as const;
export const BRIDGE_WS_PATH = '/bridge';
/** Header carrying the bridge token: `Authorization: Bearer <token>`. */
export const BRIDGE_AUTH_HEADER = 'authorization';
export const BRIDGE_AUTH_SCHEME = 'Bearer';
/** Header naming the location the bridge serves. */
export const BRIDGE_LOCATION_HEADER = 'x-deposito-location';
/** Query parameter alternative to BRIDGE_LOCATION_HEADER. */
export const BRIDGE_LOCATION_QUERY = 'location';
export const BRIDGE_MAX_MESSAGE_BYTES = 1024 * 1024;

/** WebSocket close codes the hub may use after the upgrade. */
export const BRIDGE_CLOSE_CODES = {
  /** The token was revoked while connected: the bridge stops as for an HTTP 401. */
  unauthorized: 4401,
  /** The hub does not speak the protocol version announced in `hello`: the bridge stops. */
  unsupportedProtocol: 4406,
  /**
   * Another bridge holds the connection for this location (same token). The bridge receiving it
   * logs an error and retries slowly (see edge-bridge/README.md), never in a tight loop.
   */
  replaced: 4409,
} as const;

/** Headers the bridge sends on the upgrade request. */
export function bridgeAuthHeaders(token: string, locationKey: string): Record<string, string> {
  return {
    [BRIDGE_AUTH_HEADER]: `${BRIDGE_AUTH_SCHEME} ${token}`,
    [BRIDGE_LOCATION_HEADER]: locationKey,
  };
}

const timestamp = z.iso.datetime(); // UTC, `Z` suffix
const commandId = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(128),
    z.regex(/^[A-Za-z0-9._:-]+$/, 'command id: letters, digits, . _ : -'),
  );
const lockerId = z.number().check(z.int(), z.gte(1), z.lte(99_999));
const seq = z.number().check(z.int(), z.positive());
const pin = z.string().check(z.regex(/^\d{4,8}$/, 'PIN: 4 to 8 digits'));
const count = z.number().check(z.int(), z.nonnegative());
/** A short text of at most `max` characters (error codes and messages). */
const text = (max: number) => z.string().check(z.maxLength(max));
const errorBody = z.object({ code: text(64), message: text(2000) });

export const occupancySchema = z.enum(['free', 'booked', 'inhibited', 'unknown']);
export type Occupancy = z.infer<typeof occupancySchema>;

export const lockerSnapshotSchema = z.object({
  lockerId,
  occupancy: occupancySchema,
  doorOpen: z.boolean(),
  /** The controller's raw numeric state, for diagnosis. */
  code: z.number().check(z.int()),
});
export type LockerSnapshot = z.infer<typeof lockerSnapshotSchema>;

export const historyEntrySchema = z.object({
  index: count,
  lockerId,
  occurredAt: timestamp,
  kind: text(64),
  description: z.optional(text(500)),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

// ── cloud → bridge ────────────────────────────────────────────────────────────────────────────

export const commandOpSchema = z.enum(['open', 'inhibit', 'unbook', 'book', 'getState', 'history']);
export type CommandOp = z.infer<typeof commandOpSchema>;
/** Operations that leave the locker in a state a poll can verify; retried while the controller is unreachable. */
export const STATE_SETTING_OPS = ['book', 'unbook', 'inhibit'] as const satisfies readonly CommandOp[];

const commandBase = {
  type: z.literal('command'),
  id: commandId,
  issuedAt: timestamp,
  /**
   * After this instant the bridge answers EXPIRED instead of executing; it checks it on its own clock
   * right before the controller call. The hub writes its deadline shifted by how far the bridge's
   * clock is ahead, as measured from the bridge's stamps (`hello.sentAt`, `ack.receivedAt`) against
   * their arrival, which never overestimates it: a skewed bridge clock makes it stop early, not late.
   */
  expiresAt: timestamp,
};

export const commandSchema = z.discriminatedUnion('op', [
  z.object({ ...commandBase, op: z.literal('open'), lockerId }),
  z.object({ ...commandBase, op: z.literal('inhibit'), lockerId }),
  z.object({ ...commandBase, op: z.literal('unbook'), lockerId }),
  z.object({
    ...commandBase,
    op: z.literal('book'),
    lockerId,
    params: z
      .object({ pin, from: timestamp, to: timestamp })
      .check(z.refine((p) => p.from < p.to, { message: 'from must be before to', path: ['to'] })),
  }),
  /** Without lockerId: every locker of the site. */
  z.object({ ...commandBase, op: z.literal('getState'), lockerId: z.optional(lockerId) }),
  z.object({
    ...commandBase,
    op: z.literal('history'),
    lockerId: z.optional(lockerId),
    params: z.object({ from: timestamp, to: timestamp, index: z.optional(count) }),
  }),
]);
export type BridgeCommand = z.infer<typeof commandSchema>;

/** The hub has durably stored these buffered items; the bridge may delete them. */
export const deliveredSchema = z.object({
  type: z.literal('delivered'),
  seqs: z.array(seq).check(z.minLength(1), z.maxLength(1000)),
});
export type DeliveredMessage = z.infer<typeof deliveredSchema>;

/** The hub accepted the bridge's hello: the connection is live (reset the reconnect backoff). */
export const helloAckSchema = z.object({
  type: z.literal('hello-ack'),
});
export type HelloAckMessage = z.infer<typeof helloAckSchema>;

/** The hub gave up on this command: if not yet sent to the controller, it never will be. */
export const cancelSchema = z.object({
  type: z.literal('cancel'),
  commandId,
});
export type CancelMessage = z.infer<typeof cancelSchema>;

export const cloudToBridgeSchema = z.discriminatedUnion('type', [
  commandSchema,
  deliveredSchema,
  helloAckSchema,
  cancelSchema,
]);
export type CloudToBridgeMessage = z.infer<typeof cloudToBridgeSchema>;

// ── bridge → cloud ────────────────────────────────────────────────────────────────────────────

/** Optional hub → bridge messages, named in `hello.features` by a bridge that understands them. */
export const BRIDGE_FEATURES = ['hello-ack', 'cancel'] as const;

export const helloSchema = z.object({
  type: z.literal('hello'),
  protocolVersion: z.literal(BRIDGE_PROTOCOL_VERSION),
  bridgeVersion: z.string().check(z.minLength(1), z.maxLength(64)),
  locationKey: z.string().check(z.minLength(1), z.maxLength(64)),
  buffered: z.object({
    results: count,
    events: count,
    snapshots: count,
    /** Commands received but not finished (waiting, running or retrying). */
    pendingCommands: count,
  }),
  oldestBufferedAt: z.nullable(timestamp),
  sentAt: timestamp,
  /** Optional messages this bridge understands (BRIDGE_FEATURES, possibly more later); absent on older bridges. */
  features: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(32))).check(z.maxLength(32))),
});
export type HelloMessage = z.infer<typeof helloSchema>;

/** The command is stored on the bridge's disk; it will be executed at most once. */
export const ackSchema = z.object({
  type: z.literal('ack'),
  commandId,
  /** True when this id had been received before (its recorded result, if any, is sent again). */
  duplicate: z.boolean(),
  receivedAt: timestamp,
});
export type AckMessage = z.infer<typeof ackSchema>;

/** A message the bridge could not accept (bad JSON or shape); commandId when one could be read. */
export const rejectedSchema = z.object({
  type: z.literal('rejected'),
  commandId: z.optional(text(128)),
  error: errorBody,
});
export type RejectedMessage = z.infer<typeof rejectedSchema>;

export const resultStatusSchema = z.enum(['SUCCEEDED', 'FAILED', 'EXPIRED', 'UNKNOWN']);
export type ResultStatus = z.infer<typeof resultStatusSchema>;

export const resultSchema = z
  .object({
    type: z.literal('result'),
    seq,
    commandId,
    op: commandOpSchema,
    ok: z.boolean(),
    /**
     * SUCCEEDED: done. FAILED: not done (the controller refused, or stayed unreachable).
     * EXPIRED: not executed, never will be: expiresAt passed before the controller call could start
     * (error `command/expired`), or the hub cancelled it first (error `command/cancelled`). UNKNOWN: the controller did not answer in time
     * and may or may not have acted; it is never repeated blindly, and a later result with `reconciled`
     * true may settle it once a state poll shows the outcome.
     */
    status: resultStatusSchema,
    data: z.optional(
      z.object({
        lockers: z.optional(z.array(lockerSnapshotSchema)),
        history: z.optional(z.array(historyEntrySchema)),
      }),
    ),
    error: z.optional(errorBody),
    /** Number of controller calls made for this command (retries of unreachable-controller failures). */
    attempts: count,
    completedAt: timestamp,
    /** This result replaces an earlier UNKNOWN one for the same command, after a state poll. */
    reconciled: z.optional(z.boolean()),
  })
  .check(
    z.refine((r) => r.ok === (r.status === 'SUCCEEDED'), { message: 'ok must equal status === SUCCEEDED' }),
  );
export type ResultMessage = z.infer<typeof resultSchema>;

export const snapshotSchema = z.object({
  type: z.literal('snapshot'),
  seq,
  takenAt: timestamp,
  lockers: z.array(lockerSnapshotSchema).check(z.maxLength(10_000)),
});
export type SnapshotMessage = z.infer<typeof snapshotSchema>;

const eventBase = {
  type: z.literal('event'),
  /** Unique per event (UUID); stable across resends. */
  id: z.uuid(),
  seq,
  occurredAt: timestamp,
  lockerId,
};

export const eventSchema = z.discriminatedUnion('kind', [
  /** Observed by the bridge's state poll. */
  z.object({ ...eventBase, kind: z.literal('door'), door: z.enum(['opened', 'closed']) }),
  z.object({ ...eventBase, kind: z.literal('state-change'), from: occupancySchema, to: occupancySchema }),
  /** A technician acted on the controller directly from the bridge's CLI. */
  z.object({
    ...eventBase,
    kind: z.literal('technician-action'),
    action: z.enum(['open', 'inhibit', 'unbook']),
    ok: z.boolean(),
    error: z.optional(errorBody),
  }),
]);
export type EventMessage = z.infer<typeof eventSchema>;

export const bridgeToCloudSchema = z.discriminatedUnion('type', [
  helloSchema,
  ackSchema,
  rejectedSchema,
  resultSchema,
  snapshotSchema,
  eventSchema,
]);
export type BridgeToCloudMessage = z.infer<typeof bridgeToCloudSchema>;

/** Items the bridge buffers and delivers in seq order until the hub sends `delivered`. */
export type BufferedMessage = ResultMessage | SnapshotMessage | EventMessage;
/** A buffered item before the buffer assigns its seq. */
export type UnsequencedMessage =
  Omit<ResultMessage, 'seq'> | Omit<SnapshotMessage, 'seq'> | DistributiveOmit<EventMessage, 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

// ── parsing ───────────────────────────────────────────────────────────────────────────────────

export type BridgeParseErrorCode =
  'bridge/message_too_large' | 'bridge/invalid_json' | 'bridge/invalid_message';
export type BridgeParseResult<T> =
  | { ok: true; message: T }
  | {
      ok: false;
      error: { code: BridgeParseErrorCode; message: string };
      /** The command id, when the bad message was a command whose id could be read. */
      commandId?: string;
    };

/** Parses a cloud → bridge frame (text, bytes or an already decoded value). Never throws. */
export function parseCloudToBridge(raw: unknown): BridgeParseResult<CloudToBridgeMessage> {
  return parseWith(cloudToBridgeSchema, raw);
}

/** Parses a bridge → cloud frame (text, bytes or an already decoded value). Never throws. */
export function parseBridgeToCloud(raw: unknown): BridgeParseResult<BridgeToCloudMessage> {
  return parseWith(bridgeToCloudSchema, raw);
}

function parseWith<T>(schema: z.ZodMiniType<T>, raw: unknown): BridgeParseResult<T> {
  let value: unknown = raw;
  if (raw instanceof Uint8Array || raw instanceof ArrayBuffer) {
    if (raw.byteLength > BRIDGE_MAX_MESSAGE_BYTES) return tooLarge();
    value = new TextDecoder().decode(raw);
  }
  if (typeof value === 'string') {
    // A JS string is at most 3 bytes of UTF-8 per UTF-16 unit; cheap check before the exact one.
    if (
      value.length > BRIDGE_MAX_MESSAGE_BYTES ||
      new TextEncoder().encode(value).byteLength > BRIDGE_MAX_MESSAGE_BYTES
    ) {
      return tooLarge();
    }
    try {
      value = JSON.parse(value);
    } catch (error) {
      return { ok: false, error: { code: 'bridge/invalid_json', message: describe(error) } };
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const id = readCommandId(value);
  return {
    ok: false,
    error: { code: 'bridge/invalid_message', message: z.prettifyError(parsed.error).slice(0, 2000) },
    ...(id === undefined ? {} : { commandId: id }),
  };
}

function tooLarge<T>(): BridgeParseResult<T> {
  return {
    ok: false,
    error: { code: 'bridge/message_too_large', message: `message exceeds ${BRIDGE_MAX_MESSAGE_BYTES} bytes` },
  };
}

function readCommandId(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  if (record.type !== 'command') return undefined;
  return commandId.safeParse(record.id).success ? (record.id as string) : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
