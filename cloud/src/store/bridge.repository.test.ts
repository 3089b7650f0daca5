import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResultMessage } from '@deposito/protocol/bridge/v1';
import { buildLocation } from '../../test/builders';
import { createTestDatabase, STORE_DIALECTS, testPostgresUrl, useTestStore } from '../../test/test-store';
import { PostgresNotificationListener } from './bridge-notifications';
import type { NewBridgeCommand } from './bridge.repository';

const LOCATION = 'bridgeloc';
const OTHER = 'otherloc';
const t0 = new Date('2026-05-04T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

function command(overrides: Partial<NewBridgeCommand> = {}): NewBridgeCommand {
  return {
    id: `inhibit-${randomUUID()}`,
    locationKey: LOCATION,
    op: 'inhibit',
    lockerId: 3,
    params: null,
    transactionId: null,
    issuedAt: t0,
    expiresAt: at(60),
    ...overrides,
  };
}

function result(commandId: string, overrides: Partial<ResultMessage> = {}): ResultMessage {
  return {
    type: 'result',
    seq: 1,
    commandId,
    op: 'inhibit',
    ok: true,
    status: 'SUCCEEDED',
    attempts: 1,
    completedAt: at(5).toISOString(),
    ...overrides,
  };
}

// The outbox, locker states, events and connections behave the same on SQLite and PostgreSQL.
describe.each(STORE_DIALECTS)('bridge repository on %s', (dialect) => {
  const { store } = useTestStore(dialect);

  beforeAll(async () => {
    await store.locations.save(buildLocation({ key: LOCATION }), t0);
    await store.locations.save(buildLocation({ key: OTHER }), t0);
  });

  it('keeps one token hash per location and refuses one for an unknown location', async () => {
    expect(await store.bridge.tokenHash(LOCATION)).toBeNull();
    expect(await store.bridge.setTokenHash(LOCATION, 'a'.repeat(64), t0)).toBe(true);
    expect(await store.bridge.setTokenHash(LOCATION, 'b'.repeat(64), at(1))).toBe(true);
    expect(await store.bridge.tokenHash(LOCATION)).toBe('b'.repeat(64));
    expect(await store.bridge.setTokenHash('nowhere', 'c'.repeat(64), t0)).toBe(false);
  });

  it('adds a command once and moves it queued → sent → acked, counting each send', async () => {
    const queued = command();
    expect(await store.bridge.insertCommand(queued)).toBe(true);
    expect(await store.bridge.insertCommand({ ...queued, op: 'open' })).toBe(false);
    expect(await store.bridge.getCommand(queued.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      op: 'inhibit',
    });

    expect(await store.bridge.markSent(queued.id, at(1))).toBe(true);
    expect(await store.bridge.markAcked(OTHER, queued.id, at(2))).toBe(false);
    expect(await store.bridge.markAcked(LOCATION, queued.id, at(2))).toBe(true);
    // Resent after a reconnect: still acked, one more attempt.
    expect(await store.bridge.markSent(queued.id, at(3))).toBe(true);
    expect(await store.bridge.getCommand(queued.id)).toMatchObject({
      status: 'acked',
      attempts: 2,
      ackedAt: at(2),
      lastSentAt: at(3),
    });
    expect((await store.bridge.openCommands(LOCATION, 100)).map((c) => c.id)).toContain(queued.id);
  });

  it('gives a location its open commands and a booking its commands in the order they were added, not by id or clock', async () => {
    // One millisecond, ids that sort the other way, and a second cloud process whose clock is behind.
    const transactionId = `tx-${randomUUID()}`;
    const added = [
      command({ id: `unbook-${randomUUID()}`, op: 'unbook', lockerId: 7, transactionId, issuedAt: at(30) }),
      command({ id: `book-${randomUUID()}`, op: 'book', lockerId: 7, transactionId, issuedAt: at(30) }),
      command({ id: `inhibit-${randomUUID()}`, lockerId: 7, transactionId, issuedAt: at(29) }),
    ];
    for (const c of added) await store.bridge.insertCommand(c);
    const ids = added.map((c) => c.id);
    expect(
      (await store.bridge.openCommands(LOCATION, 1000)).map((c) => c.id).filter((id) => ids.includes(id)),
    ).toEqual(ids);
    expect((await store.bridge.commandsForTransaction(transactionId)).map((c) => c.id)).toEqual(ids);
  });

  it('stores the first result of a command and ignores repeats, other locations and unknown ids', async () => {
    const sent = command();
    await store.bridge.insertCommand(sent);
    await store.bridge.markSent(sent.id, at(1));

    expect((await store.bridge.recordResult(OTHER, result(sent.id), at(6))).applied).toBe(false);
    expect(await store.bridge.recordResult(LOCATION, result('no-such-command'), at(6))).toEqual({
      applied: false,
      command: null,
    });
    const first = await store.bridge.recordResult(LOCATION, result(sent.id), at(6));
    expect(first).toMatchObject({ applied: true, command: { status: 'succeeded', completedAt: at(5) } });
    const again = await store.bridge.recordResult(
      LOCATION,
      result(sent.id, { seq: 9, ok: false, status: 'FAILED', error: { code: 'x', message: 'late' } }),
      at(7),
    );
    expect(again.applied).toBe(false);
    expect(await store.bridge.getCommand(sent.id)).toMatchObject({ status: 'succeeded', error: null });
    expect(await store.bridge.markSent(sent.id, at(8))).toBe(false);
    expect((await store.bridge.openCommands(LOCATION, 100)).map((c) => c.id)).not.toContain(sent.id);
  });

  it('keeps the time a command was acknowledged, and takes the result as the acknowledgement otherwise', async () => {
    const acked = command();
    const silent = command();
    for (const c of [acked, silent]) {
      await store.bridge.insertCommand(c);
      await store.bridge.markSent(c.id, at(1));
    }
    await store.bridge.markAcked(LOCATION, acked.id, at(2));
    const first = await store.bridge.recordResult(LOCATION, result(acked.id), at(6));
    expect(first.command).toMatchObject({ status: 'succeeded', ackedAt: at(2) });
    const second = await store.bridge.recordResult(LOCATION, result(silent.id), at(7));
    expect(second.command).toMatchObject({ status: 'succeeded', ackedAt: at(7) });
    expect(await store.bridge.getCommand(silent.id)).toMatchObject({ ackedAt: at(7) });
  });

  it('lets a reconciled result settle an UNKNOWN outcome', async () => {
    const unsure = command();
    await store.bridge.insertCommand(unsure);
    await store.bridge.recordResult(
      LOCATION,
      result(unsure.id, {
        ok: false,
        status: 'UNKNOWN',
        error: { code: 'controller/timeout', message: 'no answer' },
      }),
      at(6),
    );
    expect(await store.bridge.getCommand(unsure.id)).toMatchObject({
      status: 'unknown',
      error: { code: 'controller/timeout' },
    });
    const reconciled = await store.bridge.recordResult(
      LOCATION,
      result(unsure.id, { seq: 2, reconciled: true }),
      at(9),
    );
    expect(reconciled).toMatchObject({ applied: true, command: { status: 'succeeded', error: null } });
  });

  it('expires only commands that never left, withdraws only queued ones, and gives up on silent ones', async () => {
    const never = command({ expiresAt: at(10) });
    const away = command({ expiresAt: at(10) });
    const withdrawn = command();
    for (const c of [never, away, withdrawn]) await store.bridge.insertCommand(c);
    await store.bridge.markSent(away.id, at(1));

    expect(await store.bridge.withdrawQueued(away.id, { code: 'w', message: 'w' }, at(2))).toBe(false);
    expect(await store.bridge.withdrawQueued(withdrawn.id, { code: 'w', message: 'w' }, at(2))).toBe(true);
    expect(await store.bridge.markSent(withdrawn.id, at(3))).toBe(false);

    const expired = await store.bridge.expireUndelivered(at(11));
    expect(expired).toContain(never.id);
    expect(expired).not.toContain(away.id);
    expect(await store.bridge.getCommand(never.id)).toMatchObject({
      status: 'expired',
      error: { code: 'bridge/command_expired' },
    });

    expect(await store.bridge.abandonUnanswered(at(0), at(20))).not.toContain(away.id);
    expect(await store.bridge.abandonUnanswered(at(1), at(20))).toContain(away.id);
    expect(await store.bridge.getCommand(away.id)).toMatchObject({
      status: 'unknown',
      error: { code: 'bridge/no_result' },
    });
  });

  it('counts commands by status and dates the oldest open one', async () => {
    const late = command({ locationKey: OTHER, issuedAt: at(-30) });
    await store.bridge.insertCommand(late);
    const counts = await store.bridge.countCommandsByStatus();
    expect(counts.queued).toBeGreaterThanOrEqual(1);
    expect(counts.succeeded).toBeGreaterThanOrEqual(2);
    expect(Object.keys(counts)).toEqual([
      'queued',
      'sent',
      'acked',
      'succeeded',
      'failed',
      'expired',
      'unknown',
    ]);
    expect(await store.bridge.oldestOpenCommandIssuedAt()).toEqual(at(-30));
  });

  it('keeps the newest observation of each locker and merges partial changes', async () => {
    await store.bridge.applyLockerStates(
      LOCATION,
      [
        { lockerId: 1, occupancy: 'free', doorOpen: false, code: 1, observedAt: at(10) },
        { lockerId: 2, occupancy: 'booked', doorOpen: false, code: 2, observedAt: at(10) },
      ],
      at(11),
    );
    await store.bridge.applyLockerStates(
      LOCATION,
      [
        { lockerId: 1, doorOpen: true, observedAt: at(12) },
        // Older than what is stored: ignored.
        { lockerId: 2, occupancy: 'free', observedAt: at(5) },
        { lockerId: 3, occupancy: 'inhibited', observedAt: at(12) },
      ],
      at(13),
    );
    expect(await store.bridge.lockerStates(LOCATION)).toEqual([
      { lockerId: 1, occupancy: 'free', doorOpen: true, code: 1, observedAt: at(12) },
      { lockerId: 2, occupancy: 'booked', doorOpen: false, code: 2, observedAt: at(10) },
      { lockerId: 3, occupancy: 'inhibited', doorOpen: false, code: null, observedAt: at(12) },
    ]);
    expect(await store.bridge.lockerStates(OTHER)).toEqual([]);
  });

  it('stores an event once by its id', async () => {
    const event = {
      id: randomUUID(),
      locationKey: LOCATION,
      seq: 4,
      kind: 'door',
      lockerId: 1,
      occurredAt: at(12),
      payload: { door: 'opened' },
    };
    expect(await store.bridge.insertEvent(event, at(13))).toBe(true);
    expect(await store.bridge.insertEvent({ ...event, seq: 1 }, at(14))).toBe(false);
    expect(await store.bridge.events(LOCATION, 10)).toEqual([{ ...event, receivedAt: at(13) }]);
  });

  it('records which process holds a bridge and never lets a heartbeat take it from another', async () => {
    const processA = { processId: 'process-a', host: 'cloud-1', pid: 10, startedAt: at(-10) };
    const processB = { processId: 'process-b', host: 'cloud-2', pid: 20, startedAt: at(-10) };
    await store.bridge.heartbeatProcess(processA, at(0));
    await store.bridge.heartbeatProcess(processB, at(5));
    expect(await store.bridge.claimConnection(LOCATION, 'process-a', '0.1.0', at(0), at(-5))).toBe(true);
    expect(await store.bridge.liveConnection(LOCATION, at(-1))).toMatchObject({ processId: 'process-a' });
    expect(await store.bridge.liveConnection(LOCATION, at(-1), 'process-a')).toBeNull();
    expect(await store.bridge.liveConnection(LOCATION, at(0))).toBeNull();
    // A live holder keeps the location: a second claim is refused.
    expect(await store.bridge.claimConnection(LOCATION, 'process-b', '0.1.0', at(1), at(-1))).toBe(false);

    // a's evidence lapsed: the bridge moves to process b; a's late heartbeat leaves b's claim alone.
    expect(await store.bridge.claimConnection(LOCATION, 'process-b', '0.1.0', at(5), at(0))).toBe(true);
    await store.bridge.heartbeatConnections(
      'process-a',
      [{ locationKey: LOCATION, bridgeVersion: '0.1.0' }],
      at(6),
    );
    await store.bridge.releaseConnection(LOCATION, 'process-a');
    await store.bridge.heartbeatProcess(processB, at(9));
    expect(await store.bridge.liveConnection(LOCATION, at(4))).toMatchObject({
      processId: 'process-b',
      heartbeatAt: at(5),
    });
    await store.bridge.heartbeatConnections(
      'process-b',
      [{ locationKey: LOCATION, bridgeVersion: '0.1.0' }],
      at(9),
    );
    expect((await store.bridge.liveConnections(at(8))).map((c) => c.processId)).toEqual(['process-b']);

    await store.bridge.releaseConnection(LOCATION, 'process-b');
    expect(await store.bridge.liveConnection(LOCATION, at(-100))).toBeNull();
    // A heartbeat puts back a claim that went missing.
    await store.bridge.heartbeatConnections(
      'process-b',
      [{ locationKey: LOCATION, bridgeVersion: '0.1.0' }],
      at(10),
    );
    await store.bridge.heartbeatProcess(processB, at(10));
    expect(await store.bridge.liveConnection(LOCATION, at(9))).toMatchObject({ processId: 'process-b' });
  });

  it('counts a connection only while its process heartbeats, and removes those of dead processes', async () => {
    const key = 'bridgeloc';
    const live = { processId: 'live-1', host: 'cloud-1', pid: 30, startedAt: at(100) };
    const silent = { processId: 'silent-1', host: 'cloud-2', pid: 40, startedAt: at(100) };
    const earlierLife = { processId: 'restarted-old', host: 'cloud-1', pid: 30, startedAt: at(50) };
    await store.bridge.heartbeatProcess(live, at(120));
    await store.bridge.heartbeatProcess(silent, at(101));
    await store.bridge.heartbeatProcess(earlierLife, at(119));
    expect(await store.bridge.claimConnection(key, 'silent-1', 'x', at(101), at(90))).toBe(true);
    await store.bridge.heartbeatConnections('silent-1', [{ locationKey: key, bridgeVersion: 'x' }], at(119));
    // The row is fresh but its process stopped heartbeating: not online, and claimable.
    expect(await store.bridge.liveConnection(key, at(110))).toBeNull();
    expect(await store.bridge.claimConnection(key, 'restarted-old', 'x', at(120), at(110))).toBe(true);
    expect(await store.bridge.liveConnection(key, at(110))).toMatchObject({ processId: 'restarted-old' });

    // The same host and pid under another id: an earlier life of the process, gone with its rows.
    expect(
      await store.bridge.removeDeadProcesses(at(110), { host: 'cloud-1', pid: 30, keep: ['live-1'] }),
    ).toEqual([key]);
    expect(await store.bridge.liveConnection(key, at(0))).toBeNull();
    await store.bridge.removeProcess('live-1');
  });
});

describe('bridge notifications on PostgreSQL', () => {
  it("reach the LISTEN session of the same schema's hubs only", async () => {
    const [one, two] = await Promise.all([createTestDatabase('postgres'), createTestDatabase('postgres')]);
    const [storeOne, storeTwo] = await Promise.all([one.open(), two.open()]);
    const received: string[] = [];
    const listener = new PostgresNotificationListener({
      connectionString: testPostgresUrl(),
      channel: await storeOne.bridge.notificationChannel(),
      onNotification: (payload) => received.push(payload),
    });
    try {
      expect(await storeOne.bridge.notificationChannel()).not.toBe(
        await storeTwo.bridge.notificationChannel(),
      );
      await listener.start();
      expect(listener.listening).toBe(true);
      await storeTwo.bridge.notify('other schema');
      await storeOne.bridge.notify('this schema');
      await expect.poll(() => received).toEqual(['this schema']);
    } finally {
      await listener.stop();
      await Promise.all([storeOne.close(), storeTwo.close()]);
      await Promise.all([one.dispose(), two.dispose()]);
    }
  });
});
