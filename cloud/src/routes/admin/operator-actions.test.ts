import {
  cleanupExecuteResponseSchema,
  cleanupPreviewResponseSchema,
  lockerBookingLiveDetailsSchema,
  recentErrorLogResponseSchema,
  takingsResponseSchema,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  callJson,
  SITE_LOCATION,
  useTestSite,
  reserveAtSite,
  expectPinProgrammed,
} from '../../../test/bridge-site';
import { STORE_DIALECTS } from '../../../test/test-store';
import { unbookCommandId } from '../../bridge-hub/booking-commands';
import type { HubLockerFullState } from '../../bridge-hub/hub-locker-control';
import type { BookingRecord } from '../../store/booking.repository';
import { closedPort } from '../../../test/closed-port';

// Gestione Locker's actions and the cleanup, as an operator meets them: over HTTP, on a real site
// (the controller simulator and the edge bridge as processes of their own, the cloud here) on each
// store. Lockers 1…8, every fourth one large; each test uses standard lockers the earlier ones freed
// or left alone.

const LOCKERS = 8;
const HOUR = 3600_000;

interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

interface ActionAnswer {
  success: boolean;
  outcome: string;
  cancelledBookings?: Array<{ transactionId: string; status: string }>;
}

describe.each(STORE_DIALECTS)('operator actions keep bookings consistent (%s)', (dialect) => {
  const site = useTestSite({
    dialect,
    lockers: LOCKERS,
    doorOpenMs: 3600_000,
    bridge: true,
    prepare: async (store) => {
      const location = (await store.locations.get(SITE_LOCATION))!;
      await store.locations.save(
        { ...location, controller: { ...location.controller, port: await closedPort() } },
        new Date(),
      );
    },
  });

  const post = <T>(path: string, body: unknown) =>
    callJson<T>(site.url, 'POST', path, { token: site.token, body });
  const get = <T>(path: string) => callJson<T>(site.url, 'GET', path, { token: site.token });
  const tile = async (locker: number) =>
    (await get<HubLockerFullState[]>(`/api/lockers/full-state?location=${SITE_LOCATION}`)).body.find(
      (l) => l.id === locker,
    );
  /** Lets the booking events' handlers (PIN commands) finish. */
  const settled = () => site.cloud.context.events.idle();

  /** Sum of the site's online takings this month, as the Incassi page reads them. */
  async function onlineTakings(): Promise<number> {
    const month = DateTime.now().setZone('Europe/Rome').toFormat('yyyy-MM');
    const answer = await get(`/api/admin/takings?month=${month}&location=${SITE_LOCATION}&reload=1`);
    expect(answer.status).toBe(200);
    const days = takingsResponseSchema.parse(answer.body).data[SITE_LOCATION] ?? {};
    return Object.values(days).reduce<number>(
      (sum, day) => sum + (typeof day === 'number' ? day : day.online),
      0,
    );
  }

  async function sellable(locker: number, booking: BookingRecord): Promise<boolean> {
    const { availability, locations } = site.cloud.context.services;
    const lockers = await availability.sellableForWindow(await locations.require(SITE_LOCATION), {
      startAt: new Date(),
      endAt: booking.endAt,
    });
    return [...lockers.standard, ...lockers.large].some((l) => l.number === locker);
  }

  /** A booking of one locker at the site, by default started a minute ago, for three hours. */
  async function bookingOn(
    locker: number,
    options: { status?: 'confirmed' | 'pending'; pin?: string; fromMs?: number; untilMs?: number } = {},
  ): Promise<BookingRecord> {
    const now = new Date();
    const status = options.status ?? 'confirmed';
    return reserveAtSite(site.store, [locker], {
      status,
      pin: options.pin ?? null,
      customer: {
        firstName: 'Mario',
        lastName: 'Rossi',
        email: null,
        phonePrefix: null,
        phoneNumber: null,
      },
      startAt: new Date(now.getTime() + (options.fromMs ?? -60_000)),
      endAt: new Date(now.getTime() + (options.untilMs ?? 3 * HOUR)),
      expiresAt: status === 'pending' ? new Date(now.getTime() + 15 * 60_000) : null,
    });
  }

  /** A paid booking whose PIN is on the simulator's locker, as after a confirmed payment. */
  async function programmedBooking(
    locker: number,
    pin: string,
    window: { fromMs?: number; untilMs?: number } = {},
  ) {
    const booking = await bookingOn(locker, { pin, ...window });
    site.cloud.context.events.emit({ type: 'booking.confirmed', booking });
    await expectPinProgrammed(site, booking.transactionId, locker, pin);
    return booking;
  }

  it('Annulla prenotazione on a paid booking asks first, then cancels it owing a refund and frees the locker', async () => {
    const booking = await programmedBooking(6, '482915');
    const takingsBefore = await onlineTakings();
    expect(await sellable(6, booking)).toBe(false);
    const unbooksBefore = await site.simulator.operations('unbook');

    const asked = await post<ErrorBody>('/api/lockers/unbook-soap', { location: SITE_LOCATION, lockerId: 6 });
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('locker/booking_live');
    expect(lockerBookingLiveDetailsSchema.parse(asked.body.error.details)).toEqual({
      lockerId: 6,
      bookings: [
        {
          transactionId: booking.transactionId,
          status: 'confirmed',
          paid: true,
          paidCents: booking.totalCents,
          startTimeIso: booking.startAt.toISOString(),
          endTimeIso: booking.endAt.toISOString(),
          lockerNumbers: [6],
          customerName: 'Mario Rossi',
        },
      ],
    });
    // Asking changed nothing: not on the controller, not in our books.
    expect((await site.store.bookings.get(booking.transactionId))?.status).toBe('confirmed');
    expect(await site.simulator.operations('unbook')).toBe(unbooksBefore);
    expect((await site.simulator.locker(6))?.booking?.pin).toBe('482915');

    const done = await post<ActionAnswer>('/api/lockers/unbook-soap', {
      location: SITE_LOCATION,
      lockerId: '6',
      confirm: true,
      reason: '  Cliente ha rinunciato  ',
      refund: true,
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      success: true,
      outcome: 'executed',
      cancelledBookings: [{ transactionId: booking.transactionId, status: 'refund_due' }],
    });
    expect((await site.store.bookings.get(booking.transactionId))?.status).toBe('refund_due');
    expect((await site.store.bookings.events(booking.transactionId)).at(-1)).toMatchObject({
      from: 'confirmed',
      to: 'refund_due',
      actor: 'operator',
      reason: 'operator_freed_locker',
      detail: expect.stringMatching(/^ops-[\w-]+@deposito\.test: Cliente ha rinunciato$/),
    });

    // The PIN is off the controller, the locker is for sale, the takings no longer count it.
    expect(await site.simulator.locker(6)).toMatchObject({ occupancy: 'free' });
    expect((await site.simulator.locker(6))?.booking).toBeUndefined();
    expect(await sellable(6, booking)).toBe(true);
    expect(await onlineTakings()).toBeCloseTo(takingsBefore - booking.priceDiscountedCents / 100, 2);
    await expect.poll(async () => (await tile(6))?.status, { timeout: 10_000 }).toBe('available');
    expect((await tile(6))?.transactionId).toBeUndefined();
    // The operator's unbook took the PIN off: no second unbook follows it.
    await settled();
    expect(await site.store.bridge.getCommand(unbookCommandId(booking.transactionId, 6))).toBeNull();
    expect(await site.simulator.operations('unbook')).toBe(unbooksBefore + 1);

    await expect
      .poll(async () => {
        const log = recentErrorLogResponseSchema.parse((await get('/api/admin/logs/recent')).body);
        return log.find(
          (e) => e.type === 'admin/booking_cancelled' && e.message.includes(booking.transactionId),
        )?.message;
      })
      .toMatch(/refund_due, rimborso dovuto\)\. Motivo: Cliente ha rinunciato \(da ops-/);
  });

  it('Attiva on a locker held by an unpaid hold cancels the hold; on a paid one without refund when told so', async () => {
    const hold = await bookingOn(2, { status: 'pending' });
    const asked = await post<ErrorBody>('/api/lockers/unbook', { location: SITE_LOCATION, lockerId: 2 });
    expect(asked.status).toBe(409);
    expect(lockerBookingLiveDetailsSchema.parse(asked.body.error.details).bookings).toMatchObject([
      { transactionId: hold.transactionId, status: 'pending', paid: false, paidCents: 0 },
    ]);
    const freed = await post<ActionAnswer>('/api/lockers/unbook', {
      location: SITE_LOCATION,
      lockerId: 2,
      confirm: true,
      reason: 'Locker guasto',
    });
    expect(freed.status).toBe(200);
    expect((await site.store.bookings.get(hold.transactionId))?.status).toBe('cancelled_by_operator');
    expect((await site.store.bookings.events(hold.transactionId)).at(-1)).toMatchObject({
      from: 'pending',
      actor: 'operator',
      reason: 'operator_freed_locker',
    });
    expect(await sellable(2, hold)).toBe(true);

    const paid = await programmedBooking(3, '615204');
    const kept = await post<ActionAnswer>('/api/lockers/unbook', {
      location: SITE_LOCATION,
      lockerId: 3,
      confirm: true,
      refund: false,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.cancelledBookings).toEqual([
      { transactionId: paid.transactionId, status: 'cancelled_by_operator' },
    ]);
    expect((await site.store.bookings.events(paid.transactionId)).at(-1)?.detail).toMatch(
      /^ops-[\w-]+@deposito\.test$/,
    );
    expect(await site.simulator.locker(3)).toMatchObject({ occupancy: 'free' });
    expect(await sellable(3, paid)).toBe(true);

    // Nothing live on the locker any more: Attiva runs at once.
    expect((await post('/api/lockers/unbook', { location: SITE_LOCATION, lockerId: 3 })).status).toBe(200);
  });

  it('Disattiva asks for a booking whose PIN waits on the locker for later, and leaves the locker inhibited', async () => {
    const later = await programmedBooking(7, '907361', { fromMs: 2 * HOUR, untilMs: 5 * HOUR });
    // Apri leaves bookings alone: no question.
    expect((await post('/api/lockers/open', { location: SITE_LOCATION, lockerId: 7 })).status).toBe(200);

    const asked = await post<ErrorBody>('/api/lockers/inhibit', { location: SITE_LOCATION, lockerId: 7 });
    expect(asked.status).toBe(409);
    expect(lockerBookingLiveDetailsSchema.parse(asked.body.error.details).bookings).toMatchObject([
      { transactionId: later.transactionId, status: 'confirmed', paid: true },
    ]);
    const inhibited = await post<ActionAnswer>('/api/lockers/inhibit', {
      location: SITE_LOCATION,
      lockerId: 7,
      confirm: true,
    });
    expect(inhibited.status).toBe(200);
    expect((await site.store.bookings.get(later.transactionId))?.status).toBe('refund_due');
    expect((await site.store.bookings.events(later.transactionId)).at(-1)).toMatchObject({
      actor: 'operator',
      reason: 'operator_cancelled',
    });
    await settled();
    // No unbook of the booking's PIN after the inhibit, which would put the locker back on sale.
    expect(await site.store.bridge.getCommand(unbookCommandId(later.transactionId, 7))).toBeNull();
    expect(await site.simulator.locker(7)).toMatchObject({ occupancy: 'inhibited' });
    expect((await site.simulator.locker(7))?.booking).toBeUndefined();
    expect((await post('/api/lockers/unbook', { location: SITE_LOCATION, lockerId: 7 })).status).toBe(200);
  });

  it('never cleans up a paid booking that has not ended, and takes the PIN of a deleted one off its locker', async () => {
    const current = await programmedBooking(1, '250418');
    const ended = await bookingOn(5, { fromMs: -4 * HOUR, untilMs: -HOUR, pin: '739152' });
    // Cancelled while its PIN was on the locker, and the event that takes it off was lost.
    const orphan = await programmedBooking(2, '318204');
    await site.store.bookings.transition(orphan.transactionId, {
      from: ['confirmed'],
      to: 'cancelled_by_operator',
      actor: 'operator',
      reason: 'operator_cancelled',
      now: new Date(),
    });
    expect((await site.simulator.locker(2))?.booking?.pin).toBe('318204');
    const everything = 'confirmed,scheduled,confirmed_late,refund_due,cancelled_by_operator,pending';

    const preview = cleanupPreviewResponseSchema.parse(
      (await get(`/api/admin/cleanup/preview?statuses=${everything}&olderThanDays=0&excludeWithLocker=false`))
        .body,
    ).data!;
    expect(preview.kept?.reason).toBe('not_ended');
    // Kept: this test's current booking and the earlier tests' refund_due ones.
    expect(preview.kept?.statusBreakdown).toEqual(
      expect.arrayContaining([
        { status: 'confirmed', count: 1 },
        { status: 'refund_due', count: 2 },
      ]),
    );
    expect(preview.statusBreakdown).toEqual(
      expect.arrayContaining([
        { status: 'confirmed', count: 1 },
        { status: 'cancelled_by_operator', count: 3 },
      ]),
    );

    const executed = await post('/api/admin/cleanup/execute', {
      statuses: everything.split(','),
      olderThanDays: 0,
      excludeWithLocker: false,
    });
    const result = cleanupExecuteResponseSchema.parse(executed.body).data!;
    expect(result.kept).toEqual(preview.kept);
    expect(result.totalTransactions).toBe(preview.totalTransactions);

    expect((await site.store.bookings.get(current.transactionId))?.status).toBe('confirmed');
    expect((await site.simulator.locker(1))?.booking?.pin).toBe('250418');
    // An ended booking goes; the controller dropped its booking at its end, so there is no PIN to remove.
    expect(await site.store.bookings.get(ended.transactionId)).toBeNull();
    expect(await site.store.bookings.get(orphan.transactionId)).toBeNull();
    expect(await site.store.bookings.events(orphan.transactionId)).toEqual([]);
    await expect
      .poll(async () => (await site.simulator.locker(2))?.occupancy, { timeout: 10_000 })
      .toBe('free');
    expect((await site.simulator.locker(2))?.booking).toBeUndefined();
  });
});
