import {
  bookingHistoryResponseSchema,
  errorBodySchema,
  lockerFullStateResponseSchema,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// Moving a paid booking to another locker (issue 17, booking operations): a jammed door, a locker
// out of order. Never onto a locker held in the rest of the stay, recorded in the booking's
// history, on both databases alike. Clock: Friday 27 March 2026, 08:00 UTC (09:00 in Rome).

describe.each(STORE_DIALECTS)("moving a booking's locker over HTTP (%s)", (dialect) => {
  const app = useAdminTestApp({ dialect });

  const testBooking = async (body: Record<string, unknown>) => {
    const made = await app.call<{ transactionId: string }>('POST', '/api/system/admin/create-test-booking', {
      token: app.token,
      body: { location: 'vicolo', nome: 'Giulia', cognome: 'Rossi', email: 'giulia@example.it', ...body },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return made.body.transactionId;
  };
  const move = (transactionId: string, from: number, to: number) =>
    app.call<{ lockers: number[]; message: string }>('POST', `/api/admin/bookings/${transactionId}/move`, {
      token: app.token,
      body: { from, to },
    });
  const codeOf = (body: unknown) => errorBodySchema.parse(body).error.code;

  it('moves a started booking to a free locker for the rest of its stay, and records it', async () => {
    const started = await testBooking({
      status: 'confirmed',
      pin: '482915',
      lockerIds: [3],
      startTime: '2026-03-27T08:00:00.000Z',
      endTime: '2026-03-27T11:00:00.000Z',
    });
    await testBooking({
      status: 'confirmed',
      pin: '739152',
      lockerIds: [4],
      startTime: '2026-03-27T09:00:00.000Z',
      endTime: '2026-03-27T12:00:00.000Z',
    });

    const onTaken = await move(started, 3, 4);
    expect(onTaken.status).toBe(409);
    expect(codeOf(onTaken.body)).toBe('booking/locker_unavailable');
    expect((await move(started, 3, 13)).status).toBe(404); // a large locker
    expect(codeOf((await move(started, 7, 5)).body)).toBe('locker/not_found'); // not one of its lockers
    expect((await move(started, 3, 3)).status).toBe(400);
    expect(
      (await app.call('POST', `/api/admin/bookings/${started}/move`, { body: { from: 3, to: 5 } })).status,
    ).toBe(401);

    const moved = await move(started, 3, 5);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.lockers).toEqual([5]);
    const state = lockerFullStateResponseSchema.parse(
      (await app.call('GET', '/api/lockers/full-state?location=vicolo', { token: app.token })).body,
    );
    expect(state.find((locker) => locker.id === 5)).toMatchObject({
      status: 'occupied',
      transactionId: started,
    });
    expect(state.find((locker) => locker.id === 3)).toMatchObject({ status: 'available' });
    const history = bookingHistoryResponseSchema.parse(
      (await app.call('GET', `/api/admin/bookings/${started}/history`, { token: app.token })).body,
    );
    expect(history.at(-1)).toMatchObject({
      from: 'confirmed',
      to: 'confirmed',
      actor: 'operator',
      reason: 'operator_moved_locker',
    });
    expect(history.at(-1)!.detail).toContain('locker 3 → 5');
    const log = await app.store.errorLog.recent(10);
    expect(log.find((entry) => entry.type === 'admin/booking_moved')?.lockerId).toBe(5);

    // Locker 3 is free again for the rest of the morning.
    await testBooking({
      status: 'confirmed',
      lockerIds: [3],
      startTime: '2026-03-27T08:30:00.000Z',
      endTime: '2026-03-27T10:00:00.000Z',
    });
  });

  it('moves only paid bookings that are not over', async () => {
    const scheduled = await testBooking({
      status: 'scheduled',
      startTime: '2026-03-28T09:00:00.000Z',
      endTime: '2026-03-28T12:00:00.000Z',
    });
    const over = await testBooking({
      status: 'confirmed',
      lockerIds: [8],
      startTime: '2026-03-27T05:00:00.000Z',
      endTime: '2026-03-27T07:00:00.000Z',
    });
    for (const id of [scheduled, over]) {
      const refused = await move(id, 8, 9);
      expect(refused.status).toBe(409);
      expect(codeOf(refused.body)).toBe('booking/invalid_state');
    }
    expect((await move('BOOKING-aaaaaaaaaaaaaaaaaaaaaa', 1, 2)).status).toBe(404);
  });
});
