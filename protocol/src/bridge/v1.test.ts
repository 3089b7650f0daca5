import { describe, expect, it } from 'vitest';
import {
  BRIDGE_MAX_MESSAGE_BYTES,
  bridgeAuthHeaders,
  parseBridgeToCloud,
  parseCloudToBridge,
  type BridgeToCloudMessage,
} from './v1';

const at = '2025-03-30T01:30:00.000Z';
const later = '2025-03-30T02:30:00.000Z';

/** A command message issued at `at` and expiring `later`; `fields` give its op, params and any change. */
const command = (fields: Record<string, unknown>) => ({
  type: 'command',
  id: 'cmd-1',
  issuedAt: at,
  expiresAt: later,
  ...fields,
});

describe('bridge protocol v1: cloud → bridge', () => {
  it('accepts each command op with its params', () => {
    const commands = [
      { op: 'open', lockerId: 4 },
      { op: 'inhibit', lockerId: 4 },
      { op: 'unbook', lockerId: 4 },
      { op: 'book', lockerId: 4, params: { pin: '123456', from: at, to: later } },
      { op: 'getState' },
      { op: 'history', params: { from: at, to: later, index: 0 } },
    ];
    for (const fields of commands) {
      const parsed = parseCloudToBridge(JSON.stringify(command({ id: `cmd-${fields.op}`, ...fields })));
      expect(parsed.ok, fields.op).toBe(true);
    }
  });

  it('rejects a book without a PIN and reports the command id', () => {
    const parsed = parseCloudToBridge(command({ op: 'book', lockerId: 4, params: { from: at, to: later } }));
    expect(parsed).toMatchObject({
      ok: false,
      commandId: 'cmd-1',
      error: { code: 'bridge/invalid_message' },
    });
  });

  it('explains a refusal in English: what is wrong, and where', () => {
    const parsed = parseCloudToBridge(command({ op: 'open', lockerId: 'four' }));
    expect(parsed).toMatchObject({
      ok: false,
      error: { message: '✖ Invalid input: expected number, received string\n  → at lockerId' },
    });
  });

  it('rejects a booking whose end is not after its start', () => {
    const parsed = parseCloudToBridge(
      command({ id: 'cmd-2', op: 'book', lockerId: 4, params: { pin: '1234', from: later, to: at } }),
    );
    expect(parsed.ok).toBe(false);
  });

  it('never throws on garbage', () => {
    for (const raw of ['{', 'null', '42', '[]', new Uint8Array([0xff, 0xfe]), undefined, { type: 'nope' }]) {
      const parsed = parseCloudToBridge(raw);
      expect(parsed.ok).toBe(false);
    }
    expect(parseCloudToBridge('{')).toMatchObject({ ok: false, error: { code: 'bridge/invalid_json' } });
  });

  it('refuses oversized frames before parsing them', () => {
    const parsed = parseCloudToBridge('"' + 'x'.repeat(BRIDGE_MAX_MESSAGE_BYTES) + '"');
    expect(parsed).toMatchObject({ ok: false, error: { code: 'bridge/message_too_large' } });
  });

  it('accepts delivery acks and decodes bytes', () => {
    const parsed = parseCloudToBridge(
      new TextEncoder().encode(JSON.stringify({ type: 'delivered', seqs: [1, 2] })),
    );
    expect(parsed).toEqual({ ok: true, message: { type: 'delivered', seqs: [1, 2] } });
  });

  it('accepts the later optional hello-ack and cancel, and a hello with or without features', () => {
    expect(parseCloudToBridge('{"type":"hello-ack"}')).toEqual({ ok: true, message: { type: 'hello-ack' } });
    expect(parseCloudToBridge({ type: 'cancel', commandId: 'cmd-7' })).toEqual({
      ok: true,
      message: { type: 'cancel', commandId: 'cmd-7' },
    });
    expect(parseCloudToBridge({ type: 'cancel' }).ok).toBe(false);
    expect(parseCloudToBridge({ type: 'cancel', commandId: 'bad id' }).ok).toBe(false);
    const hello = {
      type: 'hello',
      protocolVersion: 1,
      bridgeVersion: '0.1.0',
      locationKey: 'campo',
      buffered: { results: 0, events: 0, snapshots: 0, pendingCommands: 0 },
      oldestBufferedAt: null,
      sentAt: at,
    };
    expect(parseBridgeToCloud(hello).ok).toBe(true);
    expect(parseBridgeToCloud({ ...hello, features: ['hello-ack', 'cancel'] })).toMatchObject({
      ok: true,
      message: { features: ['hello-ack', 'cancel'] },
    });
  });
});

describe('bridge protocol v1: bridge → cloud', () => {
  const messages: BridgeToCloudMessage[] = [
    {
      type: 'hello',
      protocolVersion: 1,
      bridgeVersion: '0.1.0',
      locationKey: 'campo',
      buffered: { results: 0, events: 2, snapshots: 1, pendingCommands: 0 },
      oldestBufferedAt: at,
      sentAt: at,
    },
    { type: 'ack', commandId: 'cmd-1', duplicate: false, receivedAt: at },
    { type: 'rejected', commandId: 'cmd-1', error: { code: 'bridge/invalid_message', message: 'bad' } },
    {
      type: 'result',
      seq: 1,
      commandId: 'cmd-1',
      op: 'getState',
      ok: true,
      status: 'SUCCEEDED',
      data: { lockers: [{ lockerId: 1, occupancy: 'free', doorOpen: false, code: 1 }] },
      attempts: 1,
      completedAt: at,
    },
    {
      type: 'snapshot',
      seq: 2,
      takenAt: at,
      lockers: [{ lockerId: 1, occupancy: 'booked', doorOpen: true, code: 7 }],
    },
    {
      type: 'event',
      kind: 'door',
      id: '6f1c7f0e-8a4b-4c1e-9d2f-2b3a4c5d6e7f',
      seq: 3,
      occurredAt: at,
      lockerId: 1,
      door: 'opened',
    },
    {
      type: 'event',
      kind: 'state-change',
      id: '6f1c7f0e-8a4b-4c1e-9d2f-2b3a4c5d6e80',
      seq: 4,
      occurredAt: at,
      lockerId: 1,
      from: 'free',
      to: 'booked',
    },
  ];

  it('round-trips every message type', () => {
    for (const message of messages) {
      expect(parseBridgeToCloud(JSON.stringify(message))).toEqual({ ok: true, message });
    }
  });

  it('rejects a result whose ok flag contradicts its status', () => {
    const parsed = parseBridgeToCloud({ ...messages[3], ok: false });
    expect(parsed.ok).toBe(false);
  });

  it('rejects local-time timestamps: the wire is UTC', () => {
    const parsed = parseBridgeToCloud({ ...messages[1], receivedAt: '2025-03-30T03:30:00+02:00' });
    expect(parsed.ok).toBe(false);
  });

  it('builds the upgrade headers', () => {
    expect(bridgeAuthHeaders('tok', 'campo')).toEqual({
      authorization: 'Bearer tok',
      'x-deposito-location': 'campo',
    });
  });
});
