import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeCommand, EventMessage, ResultMessage } from '@deposito/protocol/bridge/v1';
import { BridgeBuffer } from './buffer/bridge-buffer';
import { buildBridgeConfig } from '../test/builders';
import { buildCommand, TestCloud } from '../test/test-cloud';
import { ControllerSimulator } from './controller/controller-simulator';
import { BridgeDaemon, type BridgeDaemonOptions } from './daemon';
import { bufferPath, type BridgeConfig } from './env';
import type { Clock } from './clock';

const TOKEN = 'test-token';
const LOCATION = 'campo';

interface Site {
  cloud: TestCloud;
  simulator: ControllerSimulator;
  daemon: BridgeDaemon;
  config: BridgeConfig;
  httpPort: number;
}

const running: Site[] = [];

async function startSite(
  options: {
    cloud?: Partial<ConstructorParameters<typeof TestCloud>[0]>;
    config?: Partial<BridgeConfig>;
    controllerTimeoutMs?: number;
    daemon?: Partial<BridgeDaemonOptions>;
    connect?: boolean;
  } = {},
): Promise<Site> {
  const simulator = new ControllerSimulator({ lockers: 6, doorOpenMs: 150 });
  await simulator.start();
  const cloud = new TestCloud({ token: TOKEN, locationKey: LOCATION, ...options.cloud });
  await cloud.start();
  const config = buildBridgeConfig({
    cloudUrl: cloud.url,
    bridgeToken: TOKEN,
    locationKey: LOCATION,
    controller: simulator.connection(options.controllerTimeoutMs ?? 2_000),
    linkBackoff: { baseMs: 30, capMs: 120 },
    ...options.config,
  });
  const daemon = new BridgeDaemon({
    config,
    commandRetry: { baseMs: 20, capMs: 60 },
    ...options.daemon,
  });
  const { httpPort } = await daemon.start();
  const site = { cloud, simulator, daemon, config, httpPort };
  running.push(site);
  if (options.connect !== false) await expect.poll(() => cloud.of('hello').length).toBeGreaterThan(0);
  return site;
}

afterEach(async () => {
  for (const site of running.splice(0)) {
    await site.daemon.stop();
    await site.cloud.stop();
    await site.simulator.stop();
    expect(site.cloud.invalid).toEqual([]);
    rmSync(site.config.dataDir, { recursive: true, force: true });
  }
});

const resultsFor = (cloud: TestCloud, commandId: unknown) =>
  cloud.of('result').filter((r) => r.commandId === commandId) as ResultMessage[];

/** The command's result says it was given up before the controller was ever asked: EXPIRED, no attempt. */
function expectNeverAttempted(result: unknown, error: Record<string, unknown>): void {
  expect(result).toMatchObject({ ok: false, status: 'EXPIRED', attempts: 0, error });
}

/** A booking of one locker on 1 May 2030, 08:00 to 20:00 UTC, with this PIN. */
const bookCommand = (lockerId: number, pin: string) =>
  buildCommand({
    op: 'book',
    lockerId,
    params: { pin, from: '2030-05-01T08:00:00.000Z', to: '2030-05-01T20:00:00.000Z' },
  });

describe('BridgeDaemon', () => {
  it('says hello with its location, version and buffer', async () => {
    const { cloud } = await startSite();
    expect(cloud.of('hello')[0]).toMatchObject({
      protocolVersion: 1,
      locationKey: LOCATION,
      buffered: { results: 0, events: 0, pendingCommands: 0 },
      features: ['hello-ack', 'cancel'],
    });
  });

  it('relays a command to the controller and reports the result after acknowledging it', async () => {
    const { cloud, simulator } = await startSite();
    const command = buildCommand({ op: 'inhibit', lockerId: 2 });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    expect(resultsFor(cloud, command.id)[0]).toMatchObject({
      ok: true,
      status: 'SUCCEEDED',
      op: 'inhibit',
      attempts: 1,
    });
    expect(simulator.locker(2)?.occupancy).toBe('inhibited');
    const ackIndex = cloud.received.findIndex((m) => m.type === 'ack' && m.commandId === command.id);
    const resultIndex = cloud.received.findIndex((m) => m.type === 'result' && m.commandId === command.id);
    expect(ackIndex).toBeGreaterThanOrEqual(0);
    expect(ackIndex).toBeLessThan(resultIndex);
  });

  it('has the open on its way to the controller before it acknowledges it (the operator waits for the door)', async () => {
    // No state poll holds the controller when the open comes (the first one is done, the next far off).
    const { cloud, daemon, simulator } = await startSite({ config: { pollIntervalMs: 60_000 } });
    await expect.poll(() => cloud.of('snapshot').length).toBeGreaterThan(0);
    const atAck: Array<string | undefined> = [];
    const send = daemon.link.send.bind(daemon.link);
    daemon.link.send = (message) => {
      if (message.type === 'ack') atAck.push(daemon.buffer.getCommand(message.commandId)?.status);
      return send(message);
    };
    const command = buildCommand({ op: 'open', lockerId: 3 });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    // Stored before the ack all the same (RUNNING is written when the request leaves).
    expect(atAck).toEqual(['RUNNING']);
    expect(cloud.of('ack').map((ack) => ack.commandId)).toEqual([command.id]);
    expect(resultsFor(cloud, command.id)[0]).toMatchObject({ ok: true, status: 'SUCCEEDED', attempts: 1 });
    expect(simulator.stats.byOperation.open).toBe(1);
  });

  it('answers getState and history with data', async () => {
    const { cloud, simulator } = await startSite();
    simulator.setOccupancy(3, 'booked');
    const state = buildCommand({ op: 'getState' });
    cloud.send(state);
    await expect.poll(() => resultsFor(cloud, state.id).length).toBe(1);
    const lockers = resultsFor(cloud, state.id)[0]?.data?.lockers ?? [];
    expect(lockers).toHaveLength(6);
    expect(lockers[2]).toEqual({ lockerId: 3, occupancy: 'booked', doorOpen: false, code: 2 });

    const open = buildCommand({ op: 'open', lockerId: 1 });
    cloud.send(open);
    await expect.poll(() => resultsFor(cloud, open.id).length).toBe(1);
    const history = buildCommand({
      op: 'history',
      lockerId: 1,
      params: { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' },
    });
    cloud.send(history);
    await expect.poll(() => resultsFor(cloud, history.id).length).toBe(1);
    expect(resultsFor(cloud, history.id)[0]?.data?.history?.map((h) => h.kind)).toContain('open');
  });

  it('runs a resent command id once and answers it with the recorded result', async () => {
    const { cloud, simulator } = await startSite();
    const command = bookCommand(4, '482910');
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(2);
    const acks = cloud.of('ack').filter((a) => a.commandId === command.id);
    expect(acks.map((a) => a.duplicate)).toEqual([false, true]);
    const [first, second] = resultsFor(cloud, command.id);
    expect(second).toMatchObject({ status: 'SUCCEEDED', completedAt: first?.completedAt });
    expect(second!.seq).toBeGreaterThan(first!.seq);
    expect(simulator.stats.byOperation.book).toBe(1);
    expect(simulator.locker(4)?.booking?.pin).toBe('482910');
  });

  it('answers an open past its expiry as EXPIRED without opening', async () => {
    const { cloud, simulator } = await startSite();
    const command = buildCommand({
      op: 'open',
      lockerId: 1,
      issuedAt: new Date(Date.now() - 120_000).toISOString(),
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    expectNeverAttempted(resultsFor(cloud, command.id)[0], { code: 'command/expired' });
    expect(simulator.stats.byOperation.open).toBeUndefined();
    expect(simulator.locker(1)?.doorOpen).toBe(false);
  });

  it('judges expiry by its own clock', async () => {
    // The bridge's clock runs ten minutes ahead: a command the cloud thinks has a minute left is late.
    const skewed: Clock = {
      now: () => Date.now() + 600_000,
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    };
    const { cloud, simulator } = await startSite({ daemon: { clock: skewed } });
    const command = buildCommand({ op: 'open', lockerId: 2 });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id)[0]?.status).toBe('EXPIRED');
    expect(simulator.stats.byOperation.open).toBeUndefined();
  });

  describe('an open is never late', () => {
    /** A site whose only poll after start is the one the test starts, held by a slow controller. */
    async function siteWithSlowPoll(delayMs: number) {
      const site = await startSite({ controllerTimeoutMs: 5_000, config: { pollIntervalMs: 60_000 } });
      await expect.poll(() => site.daemon.health().controller.lastPollOk).toBe(true);
      site.simulator.setFault({ kind: 'slow', delayMs }, 1, 'getLockersState');
      const poll = site.daemon.tick();
      await expect.poll(() => site.simulator.requestsInFlight).toBe(1);
      return { ...site, poll };
    }

    it('never sends an open whose deadline passes while it waits behind a slow poll: EXPIRED', async () => {
      const { cloud, simulator, poll } = await siteWithSlowPoll(1_500);
      const sentAt = Date.now();
      const command = buildCommand({
        op: 'open',
        lockerId: 2,
        expiresAt: new Date(sentAt + 300).toISOString(),
      });
      cloud.send(command);
      await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
      // Told at the deadline, while the poll still holds the controller.
      expect(Date.now() - sentAt).toBeLessThan(1_200);
      expectNeverAttempted(resultsFor(cloud, command.id)[0], {
        code: 'command/expired',
        message: expect.stringMatching(/not sent/),
      });
      await poll;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(simulator.stats.byOperation.open).toBeUndefined();
      expect(simulator.history().map((e) => e.type)).not.toContain('open');
      expect(resultsFor(cloud, command.id)).toHaveLength(1);
    });

    it('sends an open waiting behind a poll as soon as the controller is free', async () => {
      const { cloud, simulator, poll } = await siteWithSlowPoll(300);
      const command = buildCommand({ op: 'open', lockerId: 3 });
      cloud.send(command);
      await expect.poll(() => resultsFor(cloud, command.id)[0]?.status).toBe('SUCCEEDED');
      await poll;
      expect(simulator.stats.byOperation.open).toBe(1);
    });

    it('drops a waiting open the cloud cancels: never sent, answered EXPIRED (cancelled)', async () => {
      const { cloud, simulator, poll, daemon } = await siteWithSlowPoll(1_000);
      const command = buildCommand({ op: 'open', lockerId: 4 });
      cloud.send(command);
      await expect.poll(() => cloud.of('ack').filter((a) => a.commandId === command.id).length).toBe(1);
      cloud.send({ type: 'cancel', commandId: command.id });
      await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
      expectNeverAttempted(resultsFor(cloud, command.id)[0], { code: 'command/cancelled' });
      await poll;
      await daemon.tick();
      expect(simulator.stats.byOperation.open).toBeUndefined();
      expect(resultsFor(cloud, command.id)).toHaveLength(1);
      expect(cloud.of('rejected')).toEqual([]);
    });

    it('never runs a command the cloud cancelled before it arrived', async () => {
      const { cloud, simulator, daemon } = await startSite();
      const command = buildCommand({ op: 'open', lockerId: 5 });
      cloud.send({ type: 'cancel', commandId: command.id });
      cloud.send(command);
      await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
      expect(resultsFor(cloud, command.id)[0]).toMatchObject({
        status: 'EXPIRED',
        error: { code: 'command/cancelled' },
      });
      expect(cloud.of('ack').find((a) => a.commandId === command.id)).toMatchObject({ duplicate: false });
      await daemon.tick();
      expect(simulator.stats.byOperation.open).toBeUndefined();
    });

    it('stops retrying a booking the cloud cancels', async () => {
      const { cloud, simulator, daemon } = await startSite();
      simulator.setFault({ kind: 'fail' }, undefined, 'book');
      const command = bookCommand(1, '482910');
      cloud.send(command);
      await expect.poll(() => simulator.stats.byOperation.book ?? 0).toBeGreaterThanOrEqual(2);
      cloud.send({ type: 'cancel', commandId: command.id });
      // The cancel takes effect when the retry's backoff ends: up to a few seconds on a busy machine.
      await expect.poll(() => resultsFor(cloud, command.id).length, { timeout: 10_000 }).toBe(1);
      const tried = simulator.stats.byOperation.book;
      expect(resultsFor(cloud, command.id)[0]).toMatchObject({
        status: 'EXPIRED',
        error: { code: 'command/cancelled' },
      });
      simulator.setFault(null);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await daemon.tick();
      expect(simulator.stats.byOperation.book).toBe(tried);
      expect(simulator.locker(1)?.occupancy).toBe('free');
    });

    it('lets a command already sent finish when a cancel comes late', async () => {
      const { cloud, simulator } = await startSite({ config: { pollIntervalMs: 60_000 } });
      simulator.setFault({ kind: 'slow', delayMs: 300 }, 1, 'inhibit');
      const command = buildCommand({ op: 'inhibit', lockerId: 6 });
      cloud.send(command);
      await expect.poll(() => simulator.stats.byOperation.inhibit).toBe(1);
      cloud.send({ type: 'cancel', commandId: command.id });
      await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
      expect(resultsFor(cloud, command.id)[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    });
  });

  it('retries a state-setting command while the controller answers 500, then succeeds', async () => {
    const { cloud, simulator } = await startSite({ config: { pollIntervalMs: 60_000 } });
    simulator.setFault({ kind: 'fail' }, 2);
    const command = buildCommand({ op: 'unbook', lockerId: 5 });
    simulator.setOccupancy(5, 'booked');
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    expect(resultsFor(cloud, command.id)[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 3 });
    expect(simulator.locker(5)?.occupancy).toBe('free');
  });

  it("runs a locker's PIN commands in the order sent, even when the first has to be retried", async () => {
    const { cloud, simulator } = await startSite({ config: { pollIntervalMs: 60_000 } });
    const first = bookCommand(2, '318204');
    cloud.send(first);
    await expect.poll(() => resultsFor(cloud, first.id)[0]?.status).toBe('SUCCEEDED');
    // The controller fails the take-off once; the next booking's PIN for the locker follows it.
    simulator.setFault({ kind: 'fail' }, 1, 'unbook');
    const takeOff = buildCommand({ op: 'unbook', lockerId: 2 });
    const next = bookCommand(2, '907361');
    cloud.send(takeOff);
    cloud.send(next);
    await expect.poll(() => resultsFor(cloud, next.id)[0]?.status).toBe('SUCCEEDED');
    expect(resultsFor(cloud, takeOff.id)[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 2 });
    // Not taken off by the retried unbook: the PIN the visitor was sent opens the door.
    expect(simulator.locker(2)?.booking?.pin).toBe('907361');
  });

  it("runs a locker's next PIN command once the cloud cancels the retried one it waited for, and never holds back an open", async () => {
    // After its first attempt fails, the take-off waits 10–20 s for its retry: the cancel finds it
    // waiting, and the PIN after it must not wait for that retry time.
    const { cloud, simulator } = await startSite({
      config: { pollIntervalMs: 60_000 },
      daemon: { commandRetry: { baseMs: 20_000, capMs: 20_000 } },
    });
    simulator.setFault({ kind: 'fail' }, undefined, 'unbook');
    const takeOff = buildCommand({ op: 'unbook', lockerId: 3 });
    cloud.send(takeOff);
    await expect.poll(() => simulator.stats.byOperation.unbook ?? 0).toBeGreaterThanOrEqual(1);
    const next = bookCommand(3, '530917');
    cloud.send(next);
    // An open of the same locker does not wait for the PIN commands.
    const open = buildCommand({ op: 'open', lockerId: 3 });
    cloud.send(open);
    await expect.poll(() => resultsFor(cloud, open.id)[0]?.status).toBe('SUCCEEDED');
    expect(resultsFor(cloud, next.id)).toEqual([]);
    expect(simulator.stats.byOperation.book).toBeUndefined();

    cloud.send({ type: 'cancel', commandId: takeOff.id });
    await expect.poll(() => resultsFor(cloud, next.id)[0]?.status, { timeout: 5_000 }).toBe('SUCCEEDED');
    expect(resultsFor(cloud, takeOff.id)[0]).toMatchObject({ status: 'EXPIRED' });
    expect(simulator.locker(3)?.booking?.pin).toBe('530917');
  });

  it('does not retry an open when the controller fails', async () => {
    const { cloud, simulator } = await startSite({ config: { pollIntervalMs: 60_000 } });
    simulator.setFault({ kind: 'fail' }, 1);
    const command = buildCommand({ op: 'open', lockerId: 3 });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(1);
    expect(resultsFor(cloud, command.id)[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'controller/server_error' },
    });
    expect(simulator.stats.byOperation.open).toBe(1);
  });

  it('reports a controller timeout as UNKNOWN, never repeats it, and settles it from the next poll', async () => {
    const { cloud, simulator } = await startSite({ controllerTimeoutMs: 150 });
    simulator.setFault({ kind: 'slow', delayMs: 400 }, 1, 'inhibit');
    const command = buildCommand({ op: 'inhibit', lockerId: 2 });
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(2);
    const [unknown, settled] = resultsFor(cloud, command.id);
    expect(unknown).toMatchObject({ ok: false, status: 'UNKNOWN', error: { code: 'controller/timeout' } });
    expect(settled).toMatchObject({ ok: true, status: 'SUCCEEDED', reconciled: true });
    expect(simulator.stats.byOperation.inhibit).toBe(1);
  });

  it('settles an unknown booking as FAILED when polls never show it', async () => {
    const { cloud, simulator } = await startSite({ config: { reconcileWindowMs: 300 } });
    simulator.setFault({ kind: 'drop' }, 1, 'book');
    const command = bookCommand(3, '1234');
    cloud.send(command);
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(2);
    expect(
      resultsFor(cloud, command.id).map((r) => [r.status, r.reconciled ?? false, r.error?.code]),
    ).toEqual([
      ['UNKNOWN', false, 'controller/connection_lost'],
      ['FAILED', true, 'controller/not_applied'],
    ]);
    expect(simulator.stats.byOperation.book).toBe(1);
  });

  it('delivers what happened while the cloud was away, in order, once the cloud is back', async () => {
    const progress: [number, number][] = [];
    const { cloud, simulator, daemon } = await startSite({
      daemon: { onReplayProgress: (sent, total) => progress.push([sent, total]) },
    });
    await expect.poll(() => cloud.of('snapshot').length).toBeGreaterThan(0);
    await cloud.stop();
    await expect.poll(() => daemon.link.isUp).toBe(false);

    simulator.setDoor(1, true);
    await expect.poll(() => daemon.health().buffer.events).toBe(1);
    simulator.setOccupancy(2, 'booked');
    await expect.poll(() => daemon.health().buffer.events).toBe(2);
    simulator.setDoor(1, false);
    simulator.setOccupancy(3, 'inhibited');
    await expect.poll(() => daemon.health().buffer.events).toBe(4);
    const buffered = daemon.health().buffer;
    expect(buffered.oldestAgeSeconds).not.toBeNull();

    const before = cloud.received.length;
    await cloud.start();
    await expect.poll(() => cloud.of('hello').length).toBe(2);
    expect(cloud.of('hello')[1]?.buffered.events).toBe(4);
    await expect.poll(() => daemon.health().buffer.depth, { timeout: 5_000 }).toBe(0);

    const replayed = cloud.received.slice(before).filter((m): m is EventMessage => m.type === 'event');
    expect(
      replayed.map((e) => [
        e.lockerId,
        e.kind === 'door' ? e.door : e.kind === 'state-change' ? e.to : e.kind,
      ]),
    ).toEqual([
      [1, 'opened'],
      [2, 'booked'],
      [1, 'closed'],
      [3, 'inhibited'],
    ]);
    const seqs = cloud.received.slice(before).flatMap((m) => ('seq' in m ? [m.seq] : []));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(replayed.map((e) => e.id)).size).toBe(4);
    expect(progress.at(-1)?.[0]).toBe(progress.at(-1)?.[1]);
  });

  it('reports a command interrupted by a crash as UNKNOWN instead of running it again', async () => {
    const config = buildBridgeConfig();
    const buffer = BridgeBuffer.open(bufferPath(config));
    const command = buildCommand({ op: 'inhibit', lockerId: 1 }) as BridgeCommand;
    buffer.receiveCommand(command, Date.now());
    buffer.markRunning(command.id, Date.now());
    buffer.close();
    const { cloud, simulator } = await startSite({
      config: { dataDir: config.dataDir, reconcileWindowMs: 200 },
    });
    await expect.poll(() => resultsFor(cloud, command.id).length).toBe(2);
    expect(resultsFor(cloud, command.id).map((r) => [r.status, r.error?.code])).toEqual([
      ['UNKNOWN', 'bridge/interrupted'],
      ['FAILED', 'controller/not_applied'],
    ]);
    expect(simulator.stats.byOperation.inhibit).toBeUndefined();
  });

  it('keeps unacknowledged items and sends them again on the next connection', async () => {
    const { cloud, simulator, daemon } = await startSite({ cloud: { autoAck: false } });
    simulator.setOccupancy(6, 'inhibited');
    await expect.poll(() => cloud.of('event').length).toBe(1);
    const first = cloud.of('event')[0]!;
    expect(daemon.health().buffer.events).toBe(1);
    await cloud.stop();
    await cloud.start();
    await expect.poll(() => cloud.of('event').length).toBe(2);
    expect(cloud.of('event')[1]).toEqual(first);
    cloud.send({ type: 'delivered', seqs: [first.seq] });
    await expect.poll(() => daemon.health().buffer.events).toBe(0);
  });

  it('stops the link when the cloud refuses its credentials', async () => {
    let refusal = '';
    const { cloud, daemon } = await startSite({
      cloud: { refuseWith: 401 },
      connect: false,
      daemon: { onLinkRefused: (reason) => (refusal = reason) },
    });
    await expect.poll(() => daemon.link.state).toBe('refused');
    expect(refusal).toMatch(/HTTP 401/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cloud.upgrades).toBe(1);
    expect(daemon.health().link).toMatchObject({ up: false, state: 'refused' });
  });

  it('rejects a malformed command, naming it, and keeps going', async () => {
    const { cloud } = await startSite();
    cloud.send({ ...buildCommand({ op: 'book', lockerId: 1 }), id: 'bad-1' });
    cloud.sendRaw('{not json');
    await expect.poll(() => cloud.of('rejected').length).toBe(2);
    expect(cloud.of('rejected')[0]).toMatchObject({
      commandId: 'bad-1',
      error: { code: 'bridge/invalid_message' },
    });
    const good = buildCommand({ op: 'inhibit', lockerId: 1 });
    cloud.send(good);
    await expect.poll(() => resultsFor(cloud, good.id).length).toBe(1);
  });

  it('answers /healthz with 503 while the controller hangs, and 200 again once it answers', async () => {
    const { simulator, httpPort } = await startSite({ controllerTimeoutMs: 300 });
    const healthz = async () => {
      const answer = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    await expect.poll(async () => (await healthz()).status).toBe(200);
    simulator.setFault({ kind: 'slow', delayMs: 10_000 }, undefined, 'getLockersState');
    await expect.poll(async () => (await healthz()).status, { timeout: 5_000 }).toBe(503);
    const { body } = await healthz();
    expect(body).toMatchObject({
      status: 'degraded',
      controller: {
        healthy: false,
        problem: expect.stringMatching(/did not answer getLockersState within 300 ms/),
      },
      problems: [expect.stringMatching(/^controller: /)],
    });
    const metrics = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
    expect(metrics).toContain('deposito_bridge_controller_healthy 0');
    simulator.setFault(null);
    await expect.poll(async () => (await healthz()).status).toBe(200);
    expect((await healthz()).body).toMatchObject({
      status: 'ok',
      problems: [],
      controller: { healthy: true },
    });
  });

  it('says it is not linked while the cloud has not taken its hello (a second bridge with the same token)', async () => {
    const { httpPort, daemon, cloud } = await startSite({ cloud: { acceptHello: false } });
    await expect.poll(() => daemon.health().controller.lastPollOk).toBe(true);
    expect(daemon.link.isUp).toBe(true);
    const answer = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
    // 200: the doors work locally (503 is for the controller); the body says the link is not held.
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      status: 'degraded',
      problems: ['not linked to the cloud (open, but the cloud has not accepted this bridge yet)'],
      link: { up: false, state: 'open' },
    });
    expect(await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text()).toContain(
      'deposito_bridge_link_up 0',
    );
    // Taken: linked.
    cloud.take();
    await expect
      .poll(() => daemon.health())
      .toMatchObject({ status: 'ok', problems: [], link: { up: true } });
  });

  it('serves /healthz and /metrics on loopback', async () => {
    const { httpPort } = await startSite();
    const health = async () =>
      (await (await fetch(`http://127.0.0.1:${httpPort}/healthz`)).json()) as Record<string, unknown>;
    await expect.poll(health).toMatchObject({ locationKey: LOCATION, link: { up: true } });
    await expect
      .poll(async () => {
        const text = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
        return text.includes('deposito_bridge_last_poll_success 1');
      })
      .toBe(true);
    const metrics = await (await fetch(`http://127.0.0.1:${httpPort}/metrics`)).text();
    expect(metrics).toContain('deposito_bridge_link_up 1');
    expect(metrics).toMatch(/deposito_bridge_queue_depth \d+/);
    expect(metrics).toContain('deposito_bridge_commands{status="SUCCEEDED"}');
    expect(metrics).toMatch(/deposito_bridge_controller_latency_seconds \d/);
    expect((await fetch(`http://127.0.0.1:${httpPort}/nope`)).status).toBe(404);
  });
});
