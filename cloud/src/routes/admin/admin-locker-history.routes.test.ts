import { lockerHistoryResponseSchema } from '@deposito/protocol';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { buildDoorOpenedEvent } from '../../../test/builders';

// A locker's history (issue 17, audit trail): its bookings and their moves, the commands sent to
// it, what its controller reported and what operators did, merged newest first, on both databases.
// Clock: Friday 27 March 2026, 08:00 UTC.

describe.each(STORE_DIALECTS)("a locker's history over HTTP (%s)", (dialect) => {
  const app = useAdminTestApp({ dialect });
  const at = (minutes: number) => new Date(Date.parse('2026-03-27T08:00:00.000Z') + minutes * 60_000);

  it('merges what happened to the locker, newest first, and nothing of the others', async () => {
    const made = await app.call<{ transactionId: string }>('POST', '/api/system/admin/create-test-booking', {
      token: app.token,
      body: {
        location: 'vicolo',
        status: 'confirmed',
        pin: '482915',
        lockerIds: [3],
        startTime: '2026-03-27T08:00:00.000Z',
        endTime: '2026-03-27T11:00:00.000Z',
        nome: 'Giulia',
        cognome: 'Rossi',
        email: 'giulia@example.it',
      },
    });
    expect(made.status).toBe(200);
    const id = made.body.transactionId;
    app.clock.set(at(5));
    await app.store.bridge.insertCommand({
      id: `open-${randomUUID()}`,
      locationKey: 'vicolo',
      op: 'open',
      lockerId: 3,
      params: null,
      transactionId: null,
      issuedAt: at(5),
      expiresAt: at(6),
    });
    await app.store.bridge.insertEvent(buildDoorOpenedEvent({ occurredAt: at(6) }), at(6));
    await app.store.bridge.insertEvent(
      buildDoorOpenedEvent({ occurredAt: at(6), seq: 2, lockerId: 4 }),
      at(6),
    );
    await app.store.errorLog.add({
      at: at(7),
      type: 'admin/locker_command',
      locationKey: 'vicolo',
      lockerId: 3,
      message: 'Apri locker 3: eseguito (da ops@deposito.test)',
    });
    app.clock.set(at(8));
    expect(
      (
        await app.call('POST', `/api/admin/bookings/${id}/move`, {
          token: app.token,
          body: { from: 3, to: 5 },
        })
      ).status,
    ).toBe(200);

    const answer = await app.call('GET', '/api/lockers/history?location=vicolo&lockerId=3', {
      token: app.token,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const history = lockerHistoryResponseSchema.parse(answer.body);
    // The booking moved on to locker 5: here the operators' records of it (made by hand on this
    // locker, then moved away), the command and what the controller said; nothing of locker 4.
    expect(history.map((entry) => entry.source)).toEqual([
      'operator',
      'operator',
      'controller',
      'command',
      'operator',
    ]);
    expect(history.at(-1)).toMatchObject({ type: 'admin/test_booking_created' });
    expect(history[0]).toMatchObject({ type: 'admin/booking_moved' });
    expect(history[0]!.source === 'operator' && history[0]!.message).toContain(`${id}: locker 3 → 5`);
    expect(history[2]).toMatchObject({ kind: 'door', payload: '{"door":"opened"}' });
    const times = history.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const historyOf = async (locker: number) =>
      lockerHistoryResponseSchema.parse(
        (
          await app.call('GET', `/api/lockers/history?location=vicolo&lockerId=${locker}`, {
            token: app.token,
          })
        ).body,
      );
    // Locker 5: the move, the PIN sent to it (queued: no bridge in this test; the hub sends it once
    // told of the move, just after the answer) and the booking.
    await expect
      .poll(async () => (await historyOf(5)).map((entry) => entry.source))
      .toEqual(['booking_event', 'command', 'operator', 'booking']);
    const five = await historyOf(5);
    expect(five[0]).toMatchObject({ transactionId: id, reason: 'operator_moved_locker' });
    expect(five[1]).toMatchObject({ op: 'book', transactionId: id });
    expect(five[2]).toMatchObject({ type: 'admin/booking_moved' });
    expect(five.at(-1)).toMatchObject({ transactionId: id, status: 'confirmed', name: 'Giulia Rossi' });
  });

  it('refuses a locker the location does not have, and anyone not logged in', async () => {
    expect(
      (await app.call('GET', '/api/lockers/history?location=vicolo&lockerId=999', { token: app.token }))
        .status,
    ).toBe(404);
    expect((await app.call('GET', '/api/lockers/history?location=vicolo&lockerId=3')).status).toBe(401);
  });
});
