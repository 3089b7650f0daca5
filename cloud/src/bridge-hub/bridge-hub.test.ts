import { describe, expect, it } from 'vitest';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import {
  callJson,
  SITE_LOCATION,
  SITE_TOKEN,
  startHubCloud,
  bridgeUpgradeStatus,
  startSiteBridge,
  useTestSite,
  reserveAtSite,
  expectPinProgrammed,
} from '../../test/bridge-site';
import type { Clock } from '../clock';
import { PIN_NOT_PROGRAMMED_LOG_TYPE, type BridgeHub } from './bridge-hub';
import { bookCommandId, syncAllPins, syncLockerPins, unbookCommandId } from './booking-commands';
import type { HubLockerFullState } from './hub-locker-control';

// One site for the whole file, as on a real location: the edge bridge's controller simulator and
// daemon run as processes of their own, the cloud in this process over a SQLite file.

const LOCKERS = 8;

/**
 * The system clock moved forward by `advancedMs` (time the tests let pass without waiting for it,
 * never taken back) and back by `skewMs` (a cloud whose commands arrive already expired).
 */
class MovableClock implements Clock {
  advancedMs = 0;
  skewMs = 0;
  /** Set: time stands still at this instant (commands issued one after another share it). */
  frozenAt: number | null = null;
  now(): Date {
    return new Date(this.frozenAt ?? Date.now() + this.advancedMs - this.skewMs);
  }
}

const clock = new MovableClock();
/** The site's time (the cloud's and the controller's) in epoch milliseconds. */
const siteNow = () => clock.now().getTime();
// Doors opened by a command stay open for the whole file: one closing by itself would be an event
// no test expects.
const site = useTestSite({ dialect: 'sqlite', lockers: LOCKERS, clock, doorOpenMs: 3600_000, bridge: true });
/** The token the rotation test issued (the revocation test revokes it). */
let rotatedToken = '';

const hub = (): BridgeHub => site.hub;
const post = <T>(path: string, body: unknown, bearer: string | null = site.token) =>
  callJson<T>(site.url, 'POST', path, { token: bearer ?? undefined, body });
const fullState = async () =>
  (
    await callJson<HubLockerFullState[]>(
      site.url,
      'GET',
      `/api/lockers/full-state?location=${SITE_LOCATION}`,
      { token: site.token },
    )
  ).body;

/** The cloud comes back on its port after an outage. */
async function restartCloud(): Promise<void> {
  Object.assign(
    site,
    await startHubCloud({ store: site.store, target: site.database.target, clock, port: site.port }),
  );
}

/** An operator cancels a confirmed booking, and the cloud announces it as the service does. */
async function cancelAsOperator(transactionId: string): Promise<void> {
  const cancelled = await site.store.bookings.transition(transactionId, {
    from: ['confirmed'],
    to: 'cancelled_by_operator',
    actor: 'operator',
    reason: 'operator_cancelled',
    now: clock.now(),
  });
  site.cloud.context.events.emit({ type: 'booking.cancelled', booking: cancelled! });
}

/** Answers the HTTP status of an upgrade to /bridge with these headers, or 101 when the socket opened. */
const upgradeStatus = (headers: Record<string, string>, query = '') =>
  bridgeUpgradeStatus(site.url, headers, query);

/**
 * "PIN 123456 on locker 6", followed by the commands of the given bookings as they stand: a poll
 * that times out then shows which command never ran, or how it ended.
 */
async function pinWithCommands(locker: number, ...transactionIds: string[]): Promise<string> {
  const pin = (await site.simulator.locker(locker))?.booking?.pin ?? 'none';
  const commands = await Promise.all(
    transactionIds.map((id) => site.store.bridge.commandsForTransaction(id)),
  );
  const described = commands.flat().map((c) => [c.id, c.status, c.error?.code ?? ''].join(' ').trim());
  return `PIN ${pin} on locker ${locker}; commands: ${described.join(', ')}`;
}

/**
 * Lets the site's time pass to just after `instantMs` at once, instead of waiting for it: first the
 * controller's clock (the booking ending then leaves it before the cloud can send the next one), then
 * the cloud's. The bridge keeps the real clock, which it reads only against command deadlines. The
 * hub sends those on the bridge's clock, shifted by the offset it measures at each hello and ack:
 * from the bridge's next ack on, the bridge is that far behind and deadlines reach it moved back by
 * it; until then one may reach it up to the move late. No command here comes near that: a PIN's
 * deadline is its booking's end, an hour or more after the instant.
 */
async function letTimePassUntil(instantMs: number): Promise<void> {
  const byMs = Math.max(0, instantMs + 100 - siteNow());
  await site.simulator.advanceClock(byMs);
  clock.advancedMs += byMs;
}

/**
 * With the site's bridge away, runs `work` at one frozen instant (every command it issues shares
 * it), then brings the bridge back: the commands are all delivered on its return.
 */
async function atOneInstantWhileBridgeAway(work: () => Promise<void>): Promise<void> {
  await site.bridge.stop();
  await expect.poll(() => hub().isOnline(SITE_LOCATION)).toBe(false);
  clock.frozenAt = siteNow();
  try {
    await work();
  } finally {
    clock.frozenAt = null;
  }
  await startSiteBridge(site);
}

describe('bridge hub with a real bridge and controller simulator', () => {
  it('refuses a wrong token, another location, or no token with 401 before the socket opens', async () => {
    expect(await upgradeStatus(bridgeAuthHeaders('not-the-token-at-all', SITE_LOCATION))).toBe(401);
    expect(await upgradeStatus(bridgeAuthHeaders(SITE_TOKEN, 'elsewhere'))).toBe(401);
    expect(await upgradeStatus({ 'x-deposito-location': SITE_LOCATION })).toBe(401);
    // The location may travel in the query; the token never does.
    expect(await upgradeStatus({ authorization: `Bearer ${SITE_TOKEN}` }, `?location=${SITE_LOCATION}`)).toBe(
      101,
    );
    // The real bridge, answering its pings, kept the location: the test socket was refused (4409).
    await expect.poll(() => hub().connectedLocations(), { timeout: 15_000 }).toEqual([SITE_LOCATION]);
  });

  it("opens a locker from the operator's call: the door opens and the answer says executed", async () => {
    expect((await post('/api/lockers/open', { location: SITE_LOCATION, lockerId: 2 }, null)).status).toBe(
      401,
    );
    const before = await site.simulator.operations('open');
    const answer = await post<{ success: boolean; outcome: string; commandId: string }>('/api/lockers/open', {
      location: SITE_LOCATION,
      lockerId: '2',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, outcome: 'executed' });
    expect((await site.simulator.locker(2))?.doorOpen).toBe(true);
    expect(await site.simulator.operations('open')).toBe(before + 1);
    const command = await site.store.bridge.getCommand(answer.body.commandId);
    expect(command).toMatchObject({ status: 'succeeded', op: 'open', lockerId: 2, attempts: 1 });
    expect(command?.result).toMatchObject({ status: 'SUCCEEDED', ok: true });
  });

  it("shows the controller's lockers in the full state with their age, merged with the bookings", async () => {
    const now = clock.now();
    const reserved = await reserveAtSite(site.store, [3], {
      startAt: new Date(now.getTime() - 3600_000),
      endAt: new Date(now.getTime() + 2 * 3600_000),
    });
    await site.simulator.setOccupancy(3, 'booked');
    await site.simulator.setOccupancy(5, 'inhibited');

    await expect
      .poll(async () => (await fullState()).find((l) => l.id === 5)?.status, { timeout: 10_000 })
      .toBe('inhibited');
    const lockers = await fullState();
    expect(lockers).toHaveLength(LOCKERS);
    expect(lockers.find((l) => l.id === 3)).toMatchObject({
      status: 'occupied',
      size: 'standard',
      online: true,
      transactionId: reserved.transactionId,
    });
    expect(lockers.find((l) => l.id === 4)).toMatchObject({ status: 'available', size: 'large' });
    expect(lockers.find((l) => l.id === 2)).toMatchObject({ doorOpen: true });
    for (const locker of lockers) {
      expect(locker.observedAt).toBeDefined();
      expect(locker.ageSeconds).toBeLessThan(60);
    }
  });

  /**
   * A confirmed booking of one locker, by default started a minute ago, for three hours; `window`
   * gives its start and end as instants (epoch ms), so two bookings can meet exactly.
   */
  async function paidBookingNow(
    lockerNumber: number,
    pin: string,
    window: { startMs: number; endMs: number } = {
      startMs: siteNow() - 60_000,
      endMs: siteNow() + 3 * 3600_000,
    },
  ) {
    return reserveAtSite(site.store, [lockerNumber], {
      pin,
      startAt: new Date(window.startMs),
      endAt: new Date(window.endMs),
    });
  }

  it('programs the PIN of a paid booking on its locker and takes it off when the booking is cancelled', async () => {
    const booking = await paidBookingNow(6, '482915');
    const { events } = site.cloud.context;
    events.emit({ type: 'booking.confirmed', booking });
    events.emit({ type: 'booking.confirmed', booking });

    await expectPinProgrammed(site, booking.transactionId, 6, '482915');
    expect(await site.simulator.operations('book')).toBe(1);

    await cancelAsOperator(booking.transactionId);
    await expect
      .poll(async () => (await site.simulator.locker(6))?.occupancy, { timeout: 10_000 })
      .toBe('free');
    await expect
      .poll(
        async () => (await site.store.bridge.getCommand(unbookCommandId(booking.transactionId, 6)))?.status,
      )
      .toBe('succeeded');
  });

  it("moves a paid booking to another locker on an operator's word: the PIN leaves the old locker for the new", async () => {
    const booking = await paidBookingNow(6, '560273');
    site.cloud.context.events.emit({ type: 'booking.confirmed', booking });
    await expect
      .poll(async () => (await site.simulator.locker(6))?.booking?.pin, { timeout: 10_000 })
      .toBe('560273');

    const moved = await post<{ lockers: number[] }>(`/api/admin/bookings/${booking.transactionId}/move`, {
      from: 6,
      to: 1,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.lockers).toEqual([1]);
    await expect
      .poll(async () => (await site.simulator.locker(1))?.booking?.pin, { timeout: 10_000 })
      .toBe('560273');
    await expect
      .poll(async () => (await site.simulator.locker(6))?.occupancy, { timeout: 10_000 })
      .toBe('free');
    expect((await fullState()).find((locker) => locker.id === 1)).toMatchObject({
      transactionId: booking.transactionId,
    });

    // Back to where it was, for the tests after this one.
    await cancelAsOperator(booking.transactionId);
    await expect
      .poll(async () => (await site.simulator.locker(1))?.occupancy, { timeout: 10_000 })
      .toBe('free');
  });

  /**
   * How far ahead of now a first booking ends in the tests of a locker's turns: time for a busy
   * machine to program it first (the tests then let the time pass without waiting). Longer than a
   * poll's 15 s, so a slow machine fails the poll, with the commands as they stand, rather than
   * seeing the booking end before its PIN arrived.
   */
  const TURN_AHEAD_MS = 30_000;

  it("programs a locker's second booking of the day when the first one ends", async () => {
    const pins = site.cloud.context.services.bridgeHub.pins;
    const turn = siteNow() + TURN_AHEAD_MS;
    const first = await paidBookingNow(1, '250418', { startMs: siteNow() - 60_000, endMs: turn });
    const second = await paidBookingNow(1, '739152', { startMs: turn, endMs: turn + 3 * 3600_000 });
    await syncLockerPins(pins, SITE_LOCATION, [1]);
    await expect.poll(async () => (await site.simulator.locker(1))?.booking?.pin).toBe('250418');
    // The first booking holds the controller: the second waits for its turn.
    expect(await site.store.bridge.getCommand(bookCommandId(second.transactionId, 1))).toBeNull();

    await letTimePassUntil(turn);
    await syncAllPins(pins);
    await expect.poll(async () => (await site.simulator.locker(1))?.booking?.pin).toBe('739152');
    expect(await site.store.bridge.getCommand(bookCommandId(first.transactionId, 1))).toMatchObject({
      status: 'succeeded',
    });
  });

  it('lets a booking confirmed ahead of a later one take the locker first, and gives it back after', async () => {
    const pins = site.cloud.context.services.bridgeHub.pins;
    const turn = siteNow() + TURN_AHEAD_MS;
    const later = await paidBookingNow(6, '318204', { startMs: turn, endMs: turn + 3 * 3600_000 });
    await syncLockerPins(pins, SITE_LOCATION, [6]);
    await expect.poll(() => pinWithCommands(6, later.transactionId)).toMatch(/^PIN 318204 on/);

    // A visitor books the same locker until then, and pays.
    const sooner = await paidBookingNow(6, '907361', { startMs: siteNow() - 60_000, endMs: turn });
    await syncLockerPins(pins, SITE_LOCATION, [6]);
    await expect
      .poll(() => pinWithCommands(6, later.transactionId, sooner.transactionId))
      .toMatch(/^PIN 907361 on/);
    expect(await site.store.bridge.getCommand(unbookCommandId(later.transactionId, 6))).toMatchObject({
      status: 'succeeded',
    });
    expect(await site.store.bridge.getCommand(bookCommandId(sooner.transactionId, 6))).toMatchObject({
      status: 'succeeded',
    });

    await letTimePassUntil(turn);
    await syncAllPins(pins);
    await expect
      .poll(() => pinWithCommands(6, later.transactionId, sooner.transactionId))
      .toMatch(/^PIN 318204 on/);
    expect(await site.store.bridge.getCommand(bookCommandId(later.transactionId, 6, 2))).toMatchObject({
      status: 'succeeded',
    });

    // Cancelled, its PIN sent a second time comes off a second time.
    await cancelAsOperator(later.transactionId);
    await expect.poll(async () => (await site.simulator.locker(6))?.occupancy).toBe('free');
    await expect
      .poll(
        async () => (await site.store.bridge.getCommand(unbookCommandId(later.transactionId, 6, 2)))?.status,
      )
      .toBe('succeeded');
  });

  it('keeps a take-off ahead of the next PIN issued in the same millisecond, when both wait for the bridge', async () => {
    const pins = site.cloud.context.services.bridgeHub.pins;
    const turn = siteNow() + TURN_AHEAD_MS;
    const later = await paidBookingNow(2, '461029', { startMs: turn, endMs: turn + 3 * 3600_000 });
    await syncLockerPins(pins, SITE_LOCATION, [2]);
    await expect.poll(() => pinWithCommands(2, later.transactionId)).toMatch(/^PIN 461029 on/);

    // The bridge is away while a visitor books the locker until then: the unbook and the PIN after
    // it are issued at one instant, and both are delivered when the bridge is back.
    const sooner = await paidBookingNow(2, '802735', { startMs: siteNow() - 60_000, endMs: turn });
    await atOneInstantWhileBridgeAway(() => syncLockerPins(pins, SITE_LOCATION, [2]));
    await expect
      .poll(() => pinWithCommands(2, later.transactionId, sooner.transactionId))
      .toMatch(/^PIN 802735 on/);

    // Back to where it was, for the tests after this one.
    await cancelAsOperator(sooner.transactionId);
    await cancelAsOperator(later.transactionId);
    await expect.poll(async () => (await site.simulator.locker(2))?.occupancy).toBe('free');
  });

  it("keeps an operator's take-off ahead of the next booking's PIN issued in the same millisecond", async () => {
    const pins = site.cloud.context.services.bridgeHub.pins;
    const turn = siteNow() + TURN_AHEAD_MS;
    const current = await paidBookingNow(2, '620481', { startMs: siteNow() - 60_000, endMs: turn });
    const next = await paidBookingNow(2, '735190', { startMs: turn, endMs: turn + 3 * 3600_000 });
    await syncLockerPins(pins, SITE_LOCATION, [2]);
    await expect.poll(() => pinWithCommands(2, current.transactionId)).toMatch(/^PIN 620481 on/);

    // With the bridge away, an operator cancels the current booking: its unbook and the next
    // booking's PIN are issued at one instant, and both are delivered when the bridge is back.
    await atOneInstantWhileBridgeAway(async () => {
      await cancelAsOperator(current.transactionId);
      await expect
        .poll(async () => (await site.store.bridge.commandsForTransaction(next.transactionId)).length)
        .toBe(1);
    });
    await expect
      .poll(() => pinWithCommands(2, current.transactionId, next.transactionId))
      .toMatch(/^PIN 735190 on/);

    // Back to where it was, for the tests after this one.
    await cancelAsOperator(next.transactionId);
    await expect.poll(async () => (await site.simulator.locker(2))?.occupancy).toBe('free');
  });

  it("keeps a visitor's extended stay one period on the controller: the PIN's end moves, then nothing is sent when the first booking ends", async () => {
    const pins = site.cloud.context.services.bridgeHub.pins;
    const turn = siteNow() + TURN_AHEAD_MS;
    const paidLarge = (startMs: number, endMs: number) =>
      reserveAtSite(site.store, [8], {
        size: 'large',
        pin: '604718',
        startAt: new Date(startMs),
        endAt: new Date(endMs),
      });
    const stay = await paidLarge(siteNow() - 60_000, turn);
    await syncLockerPins(pins, SITE_LOCATION, [8]);
    await expect.poll(async () => (await site.simulator.locker(8))?.booking?.pin).toBe('604718');

    // The visitor pays one more hour: a booking of its own, with the stay's PIN, tied to the stay.
    const extension = await paidLarge(turn, turn + 3600_000);
    await site.store.bookingExtensions.add({
      transactionId: extension.transactionId,
      stayId: stay.transactionId,
      createdAt: clock.now(),
    });
    const unbooks = await site.simulator.operations('unbook');
    await syncLockerPins(pins, SITE_LOCATION, [8]);
    await expect
      .poll(async () => (await site.store.bridge.getCommand(bookCommandId(stay.transactionId, 8, 2)))?.status)
      .toBe('succeeded');
    expect(
      (await site.store.bridge.getCommand(bookCommandId(stay.transactionId, 8, 2)))?.params,
    ).toMatchObject({
      pin: '604718',
      to: new Date(turn + 3600_000).toISOString(),
    });
    expect(await site.simulator.operations('unbook')).toBe(unbooks + 1);
    expect((await site.simulator.locker(8))?.booking?.pin).toBe('604718');

    // The first booking's end passes: the controller already has the stay until its new end.
    await letTimePassUntil(turn);
    const books = await site.simulator.operations('book');
    await syncAllPins(pins);
    expect(await site.simulator.operations('book')).toBe(books);
    expect(await site.store.bridge.getCommand(bookCommandId(extension.transactionId, 8))).toBeNull();
    expect(await site.store.bridge.getCommand(bookCommandId(stay.transactionId, 8, 3))).toBeNull();
    expect((await site.simulator.locker(8))?.booking?.pin).toBe('604718');

    // Cancelled, the stay's PIN comes off (for the tests after this one).
    for (const booking of [stay, extension]) await cancelAsOperator(booking.transactionId);
    await expect
      .poll(async () => (await site.simulator.locker(8))?.occupancy, { timeout: 10_000 })
      .toBe('free');
  });

  it("tells the operators when a paid booking's PIN cannot be programmed because the locker is taken", async () => {
    await site.simulator.setOccupancy(7, 'booked');
    const booking = await paidBookingNow(7, '615204');
    site.cloud.context.events.emit({ type: 'booking.confirmed', booking });

    await expect
      .poll(
        async () => (await site.store.bridge.getCommand(bookCommandId(booking.transactionId, 7)))?.status,
        {
          timeout: 10_000,
        },
      )
      .toBe('failed');
    await expect
      .poll(async () =>
        (await site.store.errorLog.recent(50)).find(
          (entry) =>
            entry.type === PIN_NOT_PROGRAMMED_LOG_TYPE && entry.message.includes(booking.transactionId),
        ),
      )
      .toMatchObject({ locationKey: SITE_LOCATION, lockerId: 7 });
    expect((await site.simulator.locker(7))?.booking?.pin).not.toBe('615204');
    await site.simulator.setOccupancy(7, 'free');
  });

  it('does not execute an open that arrives after its expiry: EXPIRED is recorded and the operator gets 504', async () => {
    const opensBefore = await site.simulator.operations('open');
    clock.skewMs = 120_000;
    try {
      const answer = await post<{ error: { code: string; details: { commandId: string } } }>(
        '/api/lockers/open',
        {
          location: SITE_LOCATION,
          lockerId: 7,
        },
      );
      expect(answer.status).toBe(504);
      expect(answer.body.error.code).toBe('bridge/command_expired');
      const command = await site.store.bridge.getCommand(answer.body.error.details.commandId);
      expect(command).toMatchObject({ status: 'expired', result: { status: 'EXPIRED', ok: false } });
    } finally {
      clock.skewMs = 0;
    }
    expect(await site.simulator.operations('open')).toBe(opensBefore);
    expect((await site.simulator.locker(7))?.doorOpen).toBe(false);
  });

  it('answers 503 to an open while the location is offline, queues an inhibit and runs it when the bridge returns', async () => {
    await site.bridge.stop();
    await expect.poll(() => hub().isOnline(SITE_LOCATION)).toBe(false);

    const open = await post<{ error: { code: string } }>('/api/lockers/open', {
      location: SITE_LOCATION,
      lockerId: 7,
    });
    expect(open.status).toBe(503);
    expect(open.body.error.code).toBe('bridge/offline');

    // The previous test's paid booking holds locker 7: taking the locker out of service cancels it.
    const inhibit = await post<{ outcome: string; commandId: string }>('/api/lockers/inhibit', {
      location: SITE_LOCATION,
      lockerId: 7,
      confirm: true,
    });
    expect(inhibit.status).toBe(202);
    expect(inhibit.body).toMatchObject({ success: true, outcome: 'queued' });
    expect(await site.store.bridge.getCommand(inhibit.body.commandId)).toMatchObject({
      status: 'queued',
      attempts: 0,
    });
    // Out of service at once: not sold online while it waits.
    expect((await site.store.locations.lockers(SITE_LOCATION)).find((l) => l.number === 7)?.inService).toBe(
      false,
    );

    await startSiteBridge(site);
    await expect
      .poll(async () => (await site.simulator.locker(7))?.occupancy, { timeout: 10_000 })
      .toBe('inhibited');
    await expect
      .poll(async () => (await site.store.bridge.getCommand(inhibit.body.commandId))?.status)
      .toBe('succeeded');
    await expect
      .poll(async () => (await fullState()).find((l) => l.id === 7)?.status, { timeout: 10_000 })
      .toBe('inhibited');
  });

  it('keeps events while the cloud is down and stores them in order, once each, when it returns', async () => {
    const doorEvents = async () =>
      (await site.store.bridge.events(SITE_LOCATION, 10_000)).filter((event) => event.kind === 'door');
    const before = (await doorEvents()).length;
    await site.stop();
    await expect.poll(async () => (await site.bridge.health()).link.up).toBe(false);
    // Counted from here: the previous test's inhibit may still be on its way into the buffer.
    await site.bridge.polledSinceNow();
    const buffered = (await site.bridge.health()).buffer.events;

    const changes: Array<[number, boolean]> = [
      [1, true],
      [1, false],
      [8, true],
      [3, true],
      [8, false],
    ];
    for (const [index, [locker, open]] of changes.entries()) {
      await site.simulator.setDoor(locker, open);
      // Seen before the next change, which may undo it (the bridge samples the doors).
      await expect.poll(async () => (await site.bridge.health()).buffer.events).toBe(buffered + index + 1);
    }

    await restartCloud();
    await expect.poll(async () => (await site.bridge.health()).buffer.depth, { timeout: 20_000 }).toBe(0);

    const stored = (await doorEvents()).slice(before);
    expect(stored.map((e) => [e.lockerId, (e.payload as { door?: string }).door])).toEqual(
      changes.map(([locker, open]) => [locker, open ? 'opened' : 'closed']),
    );
    const seqs = stored.map((e) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(stored.map((e) => e.id)).size).toBe(stored.length);
    expect((await fullState()).find((l) => l.id === 3)).toMatchObject({ doorOpen: true });
  });

  it('resends a command after a reconnect until its result arrives, and the controller runs it once', async () => {
    await site.simulator.setFault({ kind: 'slow', delayMs: 2_500 }, 'unbook');
    const unbooksBefore = await site.simulator.operations('unbook');
    const { command } = await hub().issue({ locationKey: SITE_LOCATION, op: 'unbook', lockerId: 5 });
    await expect.poll(async () => (await site.store.bridge.getCommand(command.id))?.status).toBe('acked');

    // The link drops while the controller is still working on it.
    await site.stop();
    await restartCloud();

    await expect
      .poll(async () => (await site.store.bridge.getCommand(command.id))?.status, { timeout: 20_000 })
      .toBe('succeeded');
    await site.simulator.setFault({ kind: 'none' });
    const settled = await site.store.bridge.getCommand(command.id);
    expect(settled?.attempts).toBeGreaterThanOrEqual(2);
    expect(await site.simulator.operations('unbook')).toBe(unbooksBefore + 1);
    expect((await site.simulator.locker(5))?.occupancy).toBe('free');
  });

  it('counts bridges and commands for the metrics', async () => {
    await expect.poll(() => hub().isOnline(SITE_LOCATION), { timeout: 15_000 }).toBe(true);
    // Commands answered on this connection are not kept as awaiting (a long connection stays small).
    const issued = await Promise.all(
      [1, 2, 3].map(() => hub().issue({ locationKey: SITE_LOCATION, op: 'getState' })),
    );
    for (const { command } of issued) {
      await expect
        .poll(async () => (await site.store.bridge.getCommand(command.id))?.status)
        .toBe('succeeded');
    }
    await expect.poll(() => hub().commandsAwaitingResultHere()).toBe(0);
    const metrics = await hub().metrics();
    expect(metrics.commandsAwaitingResultHere).toBe(0);
    expect(metrics.bridgesConnectedHere).toBe(1);
    expect(metrics.bridgesConnected).toBe(1);
    expect(metrics.commandsByStatus.succeeded).toBeGreaterThanOrEqual(5);
    expect(metrics.commandsByStatus.expired).toBeGreaterThanOrEqual(1);
    expect(metrics.oldestPendingCommandAgeSeconds).toBe(0);
  });

  it('rotates the bridge token: the connected bridge is closed as unauthorized and only the new token opens', async () => {
    const rotated = await post<{ token: string }>(`/api/admin/locations/${SITE_LOCATION}/bridge-token`, {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.token.length).toBeGreaterThanOrEqual(32);
    expect((await post(`/api/admin/locations/nowhere/bridge-token`, {})).status).toBe(404);
    expect((await post(`/api/admin/locations/${SITE_LOCATION}/bridge-token`, {}, null)).status).toBe(401);

    await expect
      .poll(async () => (await site.bridge.health()).link.state, { timeout: 10_000 })
      .toBe('refused');
    expect(await upgradeStatus(bridgeAuthHeaders(SITE_TOKEN, SITE_LOCATION))).toBe(401);
    expect(await upgradeStatus(bridgeAuthHeaders(rotated.body.token, SITE_LOCATION))).toBe(101);
    rotatedToken = rotated.body.token;
  });

  it('revokes the bridge token without a new one: no token opens until one is issued, and the log says who', async () => {
    const revoke = (key: string, bearer: string | null = site.token) =>
      callJson<{ revoked: boolean }>(site.url, 'DELETE', `/api/admin/locations/${key}/bridge-token`, {
        token: bearer ?? undefined,
      });
    expect((await revoke(SITE_LOCATION, null)).status).toBe(401);
    expect(await upgradeStatus(bridgeAuthHeaders(rotatedToken, SITE_LOCATION))).toBe(101);

    const revoked = await revoke(SITE_LOCATION);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ revoked: true });
    expect(await upgradeStatus(bridgeAuthHeaders(rotatedToken, SITE_LOCATION))).toBe(401);
    expect(await upgradeStatus(bridgeAuthHeaders(SITE_TOKEN, SITE_LOCATION))).toBe(401);
    expect((await revoke(SITE_LOCATION)).body).toEqual({ revoked: false });
    expect((await revoke('nowhere')).status).toBe(404);

    const log = await site.store.errorLog.recent(20);
    expect(log.filter((entry) => entry.type === 'admin/bridge_token_revoked')).toHaveLength(1);
    expect(log.find((entry) => entry.type === 'admin/bridge_token_issued')?.message).toContain('(da ');

    const issued = await post<{ token: string }>(`/api/admin/locations/${SITE_LOCATION}/bridge-token`, {});
    expect(await upgradeStatus(bridgeAuthHeaders(issued.body.token, SITE_LOCATION))).toBe(101);
  });
});
