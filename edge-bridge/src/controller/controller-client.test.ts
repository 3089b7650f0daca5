import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ControllerClient } from './controller-client';
import {
  ControllerConnectionLostError,
  ControllerMalformedResponseError,
  ControllerNotSentError,
  ControllerRejectedError,
  ControllerServerError,
  ControllerTimeoutError,
  ControllerUnreachableError,
} from './controller-errors';
import { ControllerSimulator, SIMULATOR_RESPONSE } from './controller-simulator';

const from = '2030-05-01T08:00:00.000Z';
const to = '2030-05-01T20:00:00.000Z';

describe('ControllerClient against the simulator', () => {
  let simulator: ControllerSimulator;
  let client: ControllerClient;
  let port: number;

  beforeEach(async () => {
    simulator = new ControllerSimulator({ lockers: 6, key: 'k1', mastercode: 'm1', doorOpenMs: 80 });
    ({ port } = await simulator.start());
    client = new ControllerClient(simulator.connection(2_000));
  });
  afterEach(() => simulator.stop());

  it('reads every locker with its size and mapped state', async () => {
    simulator.setOccupancy(2, 'booked');
    simulator.setDoor(2, true);
    simulator.setOccupancy(3, 'inhibited');
    simulator.setOccupancy(5, 'unknown');
    const lockers = await client.getLockersState();
    expect(lockers).toHaveLength(6);
    expect(lockers[0]).toEqual({
      number: 1,
      code: 1,
      size: 'standard',
      state: { occupancy: 'free', doorOpen: false },
    });
    expect(lockers[1]).toMatchObject({ code: 7, state: { occupancy: 'booked', doorOpen: true } });
    expect(lockers[2]).toMatchObject({ code: 3, state: { occupancy: 'inhibited', doorOpen: false } });
    expect(lockers[3]).toMatchObject({ size: 'large' });
    expect(lockers[4]).toMatchObject({ code: 0, state: { occupancy: 'unknown' } });
    expect(client.lastLatencyMs).toBeGreaterThanOrEqual(0);
  });

  it('opens a door, which closes by itself', async () => {
    await client.open(4);
    expect(simulator.locker(4)?.doorOpen).toBe(true);
    await expect.poll(() => simulator.locker(4)?.doorOpen, { timeout: 2_000 }).toBe(false);
    expect(simulator.history().map((e) => e.type)).toEqual(['open', 'door_open', 'door_close']);
  });

  it('books, inhibits and unbooks', async () => {
    await client.book(1, { pin: '123456', from, to });
    expect(simulator.locker(1)).toMatchObject({ occupancy: 'booked', booking: { pin: '123456', from, to } });
    await expect(client.book(1, { pin: '654321', from, to })).rejects.toMatchObject({
      name: 'ControllerRejectedError',
      response: SIMULATOR_RESPONSE.lockerNotFree,
    });
    await client.inhibit(2);
    expect(simulator.locker(2)?.occupancy).toBe('inhibited');
    await client.unbook(1);
    await client.unbook(2);
    expect(simulator.locker(1)).toEqual({ number: 1, size: 'standard', occupancy: 'free', doorOpen: false });
    expect(simulator.locker(2)?.occupancy).toBe('free');
  });

  it("drops a booking once its period is over, so the locker takes the next booking's PIN", async () => {
    let now = new Date('2026-07-01T10:00:00.000Z');
    const clocked = new ControllerSimulator({ lockers: 2, key: 'k1', mastercode: 'm1', now: () => now });
    await clocked.start();
    const site = new ControllerClient(clocked.connection());
    try {
      const first = { pin: '111111', from: '2026-07-01T09:00:00.000Z', to: '2026-07-01T12:00:00.000Z' };
      const second = { pin: '222222', from: '2026-07-01T12:00:00.000Z', to: '2026-07-01T15:00:00.000Z' };
      await site.book(1, first);
      await expect(site.book(1, second)).rejects.toMatchObject({
        response: SIMULATOR_RESPONSE.lockerNotFree,
      });
      now = new Date('2026-07-01T12:00:00.000Z');
      expect(clocked.locker(1)).toMatchObject({ occupancy: 'free' });
      await site.book(1, second);
      expect(clocked.locker(1)).toMatchObject({ occupancy: 'booked', booking: second });
    } finally {
      await clocked.stop();
    }
  });

  it('moves its clock forward on the control endpoint, never back: a booking it passes the end of ends', async () => {
    const clock = (body: unknown) =>
      fetch(`http://127.0.0.1:${port}/_sim/clock`, { method: 'POST', body: JSON.stringify(body) });
    const endsAt = Date.now() + 3600_000;
    await client.book(1, {
      pin: '333333',
      from: new Date(endsAt - 2 * 3600_000).toISOString(),
      to: new Date(endsAt).toISOString(),
    });
    for (const wrong of [{ advanceMs: -1 }, { advanceMs: 'an hour' }, {}]) {
      expect((await clock(wrong)).status).toBe(400);
    }
    expect(simulator.locker(1)).toMatchObject({ occupancy: 'booked' });

    const moved = await clock({ advanceMs: endsAt - Date.now() });
    expect(moved.status).toBe(200);
    const { now } = (await moved.json()) as { now: string };
    expect(Date.parse(now)).toBeGreaterThanOrEqual(endsAt);
    expect(simulator.locker(1)).toMatchObject({ occupancy: 'free' });
    expect(simulator.history().at(-1)).toMatchObject({ locker: 1, type: 'unbook' });
    expect(Date.parse(simulator.history().at(-1)!.date)).toBeGreaterThanOrEqual(endsAt);
  });

  it('reads history filtered by locker and period', async () => {
    await client.inhibit(1);
    await client.inhibit(2);
    await client.unbook(2);
    const all = await client.history({ from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' });
    expect(all.map((e) => [e.index, e.locker, e.type])).toEqual([
      [1, 1, 'inhibit'],
      [2, 2, 'inhibit'],
      [3, 2, 'unbook'],
    ]);
    const two = await client.history({
      from: '2000-01-01T00:00:00.000Z',
      to: '2100-01-01T00:00:00.000Z',
      locker: 2,
      index: 3,
    });
    expect(two.map((e) => e.index)).toEqual([3]);
    expect(
      await client.history({ from: '2000-01-01T00:00:00.000Z', to: '2000-01-02T00:00:00.000Z' }),
    ).toEqual([]);
  });

  it('is refused with wrong credentials or an unknown locker', async () => {
    const intruder = new ControllerClient({ recipient: '127.0.0.1', port, key: 'k1', mastercode: 'wrong' });
    const refusal = await intruder.getLockersState().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ControllerRejectedError);
    expect(refusal).toMatchObject({
      response: SIMULATOR_RESPONSE.badCredentials,
      outcome: 'FAILED',
      retryable: false,
    });
    await expect(client.open(99)).rejects.toMatchObject({ response: SIMULATOR_RESPONSE.unknownLocker });
  });

  it('turns HTTP 500 into a retryable server error, without acting', async () => {
    simulator.setFault({ kind: 'fail' }, 1);
    const error = await client.inhibit(1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerServerError);
    expect(error).toMatchObject({ status: 500, outcome: 'FAILED', retryable: true });
    expect(simulator.locker(1)?.occupancy).toBe('free');
    await client.inhibit(1);
    expect(simulator.locker(1)?.occupancy).toBe('inhibited');
  });

  it('times out with an UNKNOWN outcome when the controller is too slow', async () => {
    const impatient = new ControllerClient(simulator.connection(100));
    simulator.setFault({ kind: 'slow', delayMs: 1_000 }, 1);
    const error = await impatient.inhibit(3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerTimeoutError);
    expect(error).toMatchObject({ outcome: 'UNKNOWN', retryable: false, timeoutMs: 100 });
    // The slow controller did act: exactly why a timeout is never repeated blindly.
    expect(simulator.locker(3)?.occupancy).toBe('inhibited');
  });

  it('reports a dropped connection as lost, outcome unknown', async () => {
    simulator.setFault({ kind: 'drop' }, 1);
    const error = await client.getLockersState().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerConnectionLostError);
    expect(error).toMatchObject({ outcome: 'UNKNOWN' });
  });

  it('reports a closed port as unreachable and retryable', async () => {
    await simulator.stop();
    const error = await client.getLockersState().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerUnreachableError);
    expect(error).toMatchObject({ outcome: 'FAILED', retryable: true });
  });

  it('sends one request at a time to a controller', async () => {
    simulator.setFault({ kind: 'slow', delayMs: 60 }, 4);
    const other = new ControllerClient(simulator.connection());
    const started = Date.now();
    await Promise.all([client.inhibit(1), client.getLockersState(), other.inhibit(2), other.open(3)]);
    expect(simulator.stats.maxConcurrent).toBe(1);
    expect(simulator.stats.requests).toBe(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 60 - 10);
  });

  it('sends a waiting locker action before a waiting read, whatever their order', async () => {
    simulator.setFault({ kind: 'slow', delayMs: 150 }, 1, 'inhibit');
    const busy = client.inhibit(1);
    const poll = client.getLockersState();
    const history = client.history({ from: from, to: to });
    const open = client.open(3);
    const book = client.book(2, { pin: '123456', from, to });
    await Promise.all([busy, poll, history, open, book]);
    // The request in progress is never interrupted; of those waiting, the actions go first.
    expect(simulator.stats.arrivals).toEqual(['inhibit', 'open', 'book', 'getLockersState', 'history']);
    expect(simulator.stats.maxConcurrent).toBe(1);
  });

  it('never sends a request whose deadline passes while it waits, and says so at the deadline', async () => {
    simulator.setFault({ kind: 'slow', delayMs: 600 }, 1, 'getLockersState');
    const poll = client.getLockersState();
    let sent = false;
    const queuedAt = Date.now();
    const error = await client
      .open(2, { deadline: queuedAt + 150, onSend: () => (sent = true) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerNotSentError);
    expect(error).toMatchObject({ reason: 'deadline', outcome: 'FAILED', retryable: false });
    // Answered when the deadline passed, not when the controller became free.
    expect(Date.now() - queuedAt).toBeLessThan(500);
    await poll;
    await client.getLockersState();
    expect(sent).toBe(false);
    expect(simulator.stats.byOperation.open).toBeUndefined();
    expect(simulator.history().map((e) => e.type)).not.toContain('open');
  });

  it('keeps a request waiting whose deadline is further away than a timer reaches', async () => {
    simulator.setFault({ kind: 'slow', delayMs: 100 }, 1, 'getLockersState');
    const poll = client.getLockersState();
    await client.book(1, { pin: '123456', from, to }, { deadline: Date.now() + 40 * 24 * 3600_000 });
    await poll;
    expect(simulator.locker(1)?.occupancy).toBe('booked');
  });

  it('refuses at once a call whose deadline has already passed', async () => {
    const error = await client.open(2, { deadline: Date.now() - 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ControllerNotSentError', reason: 'deadline' });
    expect(simulator.stats.requests).toBe(0);
  });

  it('judges the deadline when the turn comes, by its own clock', async () => {
    // The timer may fire late on a busy machine: the check right before sending is what counts.
    let skew = 0;
    const clocked = new ControllerClient({
      recipient: '127.0.0.1',
      port,
      key: 'k1',
      mastercode: 'm1',
      clock: {
        now: () => Date.now() + skew,
        setTimeout: () => null, // the deadline timer never fires
        clearTimeout: () => undefined,
      },
    });
    simulator.setFault({ kind: 'slow', delayMs: 150 }, 1, 'getLockersState');
    const poll = clocked.getLockersState();
    const open = clocked.open(4, { deadline: Date.now() + 60_000 }).catch((e: unknown) => e);
    skew = 120_000;
    await poll;
    expect(await open).toMatchObject({ name: 'ControllerNotSentError', reason: 'deadline' });
    expect(simulator.stats.byOperation.open).toBeUndefined();
  });

  it('drops a waiting request whose signal aborts; it is never sent', async () => {
    simulator.setFault({ kind: 'slow', delayMs: 300 }, 1, 'getLockersState');
    const poll = client.getLockersState();
    const cancel = new AbortController();
    const open = client.open(5, { signal: cancel.signal }).catch((e: unknown) => e);
    const later = client.inhibit(6);
    cancel.abort();
    expect(await open).toMatchObject({ name: 'ControllerNotSentError', reason: 'cancelled' });
    await Promise.all([poll, later]);
    expect(simulator.stats.arrivals).toEqual(['getLockersState', 'inhibit']);
    expect(simulator.locker(6)?.occupancy).toBe('inhibited');
  });

  it('calls onSend once, when the controller is free and just before the request leaves', async () => {
    const seen: unknown[] = [];
    simulator.setFault({ kind: 'slow', delayMs: 100 }, 1, 'getLockersState');
    const poll = client.getLockersState();
    await client.open(1, {
      deadline: Date.now() + 5_000,
      onSend: () => seen.push([client.lastExchange?.answered, [...simulator.stats.arrivals]]),
    });
    await poll;
    expect(seen).toEqual([[true, ['getLockersState']]]);
  });

  it('remembers whether the controller answered the last request', async () => {
    expect(client.lastExchange).toBeNull();
    await client.getLockersState();
    expect(client.lastExchange).toMatchObject({ answered: true, error: null });
    const impatient = new ControllerClient(simulator.connection(100));
    simulator.setFault({ kind: 'slow', delayMs: 1_000 }, 1);
    await impatient.getLockersState().catch(() => undefined);
    expect(impatient.lastExchange).toMatchObject({
      answered: false,
      error: expect.stringMatching(/within 100 ms/),
    });
    await expect(impatient.open(99)).rejects.toBeInstanceOf(ControllerRejectedError);
    // A refusal is an answer: the controller is there.
    expect(impatient.lastExchange).toMatchObject({ answered: true });
  });

  it('keeps serving the queue after a failed request', async () => {
    simulator.setFault({ kind: 'fail' }, 1);
    const results = await Promise.allSettled([client.inhibit(1), client.inhibit(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });

  it('can be steered through the HTTP control endpoint', async () => {
    const control = await fetch(`http://127.0.0.1:${port}/_sim/fault`, {
      method: 'POST',
      body: JSON.stringify({ kind: 'fail', count: 1 }),
    });
    expect(control.status).toBe(200);
    await expect(client.getLockersState()).rejects.toBeInstanceOf(ControllerServerError);
    await fetch(`http://127.0.0.1:${port}/_sim/door`, {
      method: 'POST',
      body: JSON.stringify({ locker: 2, open: true }),
    });
    const state = (await (await fetch(`http://127.0.0.1:${port}/_sim/state`)).json()) as {
      lockers: { doorOpen: boolean }[];
    };
    expect(state.lockers[1]?.doorOpen).toBe(true);
    const bad = await fetch(`http://127.0.0.1:${port}/_sim/fault`, {
      method: 'POST',
      body: '{"kind":"explode"}',
    });
    expect(bad.status).toBe(400);
  });
});

describe('ControllerClient against a controller answering nonsense', () => {
  let server: Server;
  let port: number;
  let answer: { status: number; body: string } = { status: 200, body: '' };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () =>
        res.writeHead(answer.status, { 'content-type': 'application/xml' }).end(answer.body),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () =>
    new ControllerClient({
      recipient: '127.0.0.1',
      port,
      key: 'k',
      mastercode: 'm',
      timeoutMs: 1_000,
      maxResponseBytes: 4096,
    });

  it.each([
    ['not XML', 'hello'],
    ['truncated XML', '<getLockersStateResponse><response>0</response><lockers><locker>'],
    ['the wrong answer', '<openResponse><response>0</response></openResponse>'],
    [
      'a non-numeric state',
      '<getLockersStateResponse><response>0</response><lockers><locker><number>1</number><state>x</state></locker></lockers></getLockersStateResponse>',
    ],
    [
      'an entity bomb',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><getLockersStateResponse><response>0</response><description>&b;</description><lockers/></getLockersStateResponse>',
    ],
    [
      'an oversized answer',
      `<getLockersStateResponse><response>0</response><description>${'x'.repeat(5000)}</description><lockers/></getLockersStateResponse>`,
    ],
    ['an empty body', ''],
  ])('refuses %s with a typed error', async (_label, body) => {
    answer = { status: 200, body };
    const error = await client()
      .getLockersState()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControllerMalformedResponseError);
  });

  it('reports other HTTP statuses as not retryable', async () => {
    answer = { status: 404, body: 'no' };
    await expect(client().getLockersState()).rejects.toMatchObject({
      code: 'controller/http_error',
      status: 404,
      retryable: false,
    });
  });

  it('accepts a well-formed empty site', async () => {
    answer = {
      status: 200,
      body: '<?xml version="1.0"?><getLockersStateResponse><response>0</response><description/><lockers/></getLockersStateResponse>',
    };
    expect(await client().getLockersState()).toEqual([]);
  });
});
