import {
  bookingHistoryResponseSchema,
  bookingPriceCents,
  errorBodySchema,
  MAX_EUROS,
  MIN_AMOUNT_CENTS,
  myBookingResponseSchema,
  type MyBookingResponse,
} from '@deposito/protocol';
import { VISITOR_CANCELLATION_POLICY_SETTING } from '@deposito/protocol/booking/cancellation-policy';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import {
  bookAndPayAtOca,
  ocaMarchTakings,
  tokenFromMail,
  type HoldWindow,
} from '../../../test/my-booking-visitor';
import { startPaymentTestApp } from '../../../test/payment-test-app';
import { payOnSandbox } from '../../../test/sandbox-card';
import { STORE_DIALECTS } from '../../../test/test-store';
import { TODAY_NOON } from '../../../test/builders';

// Extending a stay from the visitor's booking page (issue 16), through HTTP against the real cloud:
// the longer stays on offer and their price difference, the hold and the gateway's page, what a
// paid (and a declined) extension does to the stay, the e-mail, the PIN's new end on the
// controller, and the refusals. Clock: Friday 27 March 2026, 09:00 in Rome.

// TODAY_NOON, 12:00–15:00 in Rome: a new booking from 12:00 could last 3 to 6 hours (it must end by 22:00).
// 15:00–18:00: right after TODAY_NOON, on the same (lowest free) locker.
const AFTER_NOON = { startTimeIso: TODAY_NOON.endTimeIso, endTimeIso: '2026-03-27T17:00:00.000Z' };
// 16:00–22:00: six hours, the longest stay by the hour, ending when daytime stays must end.
const AFTERNOON_TO_CLOSING = {
  startTimeIso: '2026-03-27T15:00:00.000Z',
  endTimeIso: '2026-03-27T21:00:00.000Z',
};
const DECLINED_CARD = '4000000000000002';

describe.each(STORE_DIALECTS)('extending a stay from the booking page, on %s', (dialect) => {
  const { test } = useTestApp(() => startPaymentTestApp({ dialect }));
  const read = async (token: string): Promise<MyBookingResponse> => {
    const response = await fetch(`${test.url}/api/my-booking/${token}`);
    expect(response.status).toBe(200);
    return myBookingResponseSchema.parse(await response.json());
  };
  const extend = (token: string, endIso: string) =>
    fetch(`${test.url}/api/my-booking/${token}/extend`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endIso }),
    });
  async function paidStay(window: HoldWindow): Promise<{ id: string; token: string }> {
    const id = await bookAndPayAtOca(test, window);
    return { id, token: await tokenFromMail(test, id, 'confirmation') };
  }
  /** The month's takings of today at oca, as the operators' Incassi page reads them. */
  const takingsToday = async () => (await ocaMarchTakings(test))['27/03/2026'] ?? { online: 0, refunds: 0 };
  const priceOf = async (hours: number) => {
    const location = (await test.store.locations.get('oca'))!;
    return bookingPriceCents({
      pricing: location.pricing,
      size: 'standard',
      duration: { value: hours, unit: 'hours' },
      quantity: 1,
    })!;
  };
  /** The `book` commands the stay's lockers were given, oldest first. */
  const books = async (id: string) =>
    (await test.store.bridge.commandsForTransaction(id)).filter((command) => command.op === 'book');

  it('offers the longer stays a new booking could have, each for the price difference without a second fee', async () => {
    const { token } = await paidStay(TODAY_NOON);
    const answer = await read(token);
    const three = await priceOf(3);
    const options = await Promise.all(
      [4, 5, 6].map(async (hours) => {
        const priceCents = (await priceOf(hours)) - three;
        return {
          duration: { value: hours, unit: 'hours' },
          endIso: new Date(Date.parse(TODAY_NOON.startTimeIso) + hours * 3_600_000).toISOString(),
          priceCents,
          totalCents: Math.max(MIN_AMOUNT_CENTS, priceCents),
        };
      }),
    );
    expect(answer.extension).toEqual({ allowed: true, refusal: null, options });
    expect(answer.extensions).toEqual([]);
  });

  it('extends after payment: same locker and PIN, new end on the page, the calendar and the controller, e-mail', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    const stay = (await test.store.bookings.get(id))!;
    await test.cloud.context.events.idle();
    expect((await books(id)).map((book) => book.params?.to)).toEqual([TODAY_NOON.endTimeIso]);
    const before = await read(token);
    const option = before.extension.options[1]!; // two more hours: 12:00–17:00

    const page = await extend(token, option.endIso);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const paid = await payOnSandbox(await page.text());
    expect(paid.status).toBe(303);
    await test.cloud.context.events.idle();

    const [extensionId] = await test.store.bookingExtensions.ofStay(id);
    const extension = (await test.store.bookings.get(extensionId!))!;
    expect(extension).toMatchObject({
      status: 'confirmed',
      pin: stay.pin,
      startAt: new Date(TODAY_NOON.endTimeIso),
      endAt: new Date(option.endIso),
      feeCents: 0,
      totalCents: option.totalCents,
    });
    expect(extension.lockers.map((locker) => locker.number)).toEqual(
      stay.lockers.map((locker) => locker.number),
    );

    const after = await read(token);
    expect(after).toMatchObject({
      reference: id,
      status: 'confirmed',
      pin: stay.pin,
      startIso: TODAY_NOON.startTimeIso,
      endIso: option.endIso,
      paidCents: stay.totalCents + option.totalCents,
      extensions: [
        {
          reference: extensionId,
          status: 'confirmed',
          startIso: TODAY_NOON.endTimeIso,
          endIso: option.endIso,
          paidCents: option.totalCents,
        },
      ],
    });
    // Only the last hour is left to add.
    expect(after.extension.options.map((o) => o.duration.value)).toEqual([6]);
    expect(new URL(after.googleCalendarUrl).searchParams.get('dates')).toBe(
      '20260327T110000Z/20260327T160000Z',
    );
    const ics = await (await fetch(`${test.url}/api/my-booking/${token}/calendar.ics`)).text();
    expect(ics).toContain('DTEND:20260327T160000Z');

    // The controller holds one period per locker: the stay's PIN again, to the new end.
    const programmed = await books(id);
    expect(programmed.at(-1)?.params).toEqual({
      pin: stay.pin,
      from: TODAY_NOON.startTimeIso,
      to: option.endIso,
    });
    expect(await books(extensionId!)).toEqual([]);

    // The e-mail confirms, with the PIN, the stay's new end and a link to the stay's page.
    await test.payments.emails.deliver(extensionId);
    const mail = (await test.mails(extensionId)).find((m) => m.kind === 'extension');
    expect(mail?.subject).toBe('Booking extended – Deposito Oca – Piazza del Popolo');
    expect(mail?.text).toContain(`PIN: ${stay.pin}`);
    expect(mail?.text).toContain('Start: Friday, 27 March 2026 at 12:00');
    expect(mail?.text).toContain('End: Friday, 27 March 2026 at 17:00');
    const mailed = await tokenFromMail(test, extensionId!, 'extension');
    expect((await read(mailed)).reference).toBe(id);
    // The stay's confirmation, sent again, gives the stay's new end.
    expect((await fetch(`${test.url}/api/my-booking/${token}/resend`, { method: 'POST' })).status).toBe(202);
    const resent = (await test.mails(id)).filter((m) => m.kind === 'confirmation').at(-1);
    expect(resent?.text).toContain('End: Friday, 27 March 2026 at 17:00');

    // The booking's history in the admin area shows the extension's moves among its own.
    const history = await fetch(`${test.url}/api/admin/bookings/${id}/history`, {
      headers: { authorization: `Bearer ${await test.adminToken()}` },
    });
    expect(history.status).toBe(200);
    const entries = bookingHistoryResponseSchema.parse(await history.json());
    expect(entries.filter((entry) => entry.extension === extensionId)).toMatchObject([
      { from: 'pending', to: 'paying', actor: 'visitor', detail: `prolungamento ${extensionId}` },
      { from: 'paying', to: 'confirmed', actor: 'provider', reason: 'paid' },
    ]);
    expect(entries.filter((entry) => !entry.extension).map((entry) => entry.to)).toEqual([
      'paying',
      'confirmed',
    ]);
    // One period on one locker: an operator cannot move the stay (or its extension) to another.
    const locker = stay.lockers[0]!.number;
    for (const moved of [id, extensionId!]) {
      const refused = await fetch(`${test.url}/api/admin/bookings/${moved}/move`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await test.adminToken()}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ from: locker, to: locker === 9 ? 8 : 9 }),
      });
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(await refused.json()).error.code).toBe('booking/invalid_state');
    }
  });

  it('a declined card changes nothing: same end, nothing sent to the controller, another try is possible', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    await test.cloud.context.events.idle();
    const before = await read(token);
    const commandsBefore = await books(id);

    const page = await extend(token, before.extension.options[0]!.endIso);
    const declined = await payOnSandbox(await page.text(), { cardNumber: DECLINED_CARD });
    expect(declined.status).toBe(303);
    await test.cloud.context.events.idle();

    const [extensionId] = await test.store.bookingExtensions.ofStay(id);
    expect((await test.store.bookings.get(extensionId!))!.status).toBe('payment_declined');
    const after = await read(token);
    expect(after).toMatchObject({ endIso: before.endIso, paidCents: before.paidCents, extensions: [] });
    expect(await books(id)).toEqual(commandsBefore);

    // Choosing again lets the declined hold go and opens a new payment page.
    const again = await extend(token, before.extension.options[0]!.endIso);
    expect(again.status).toBe(200);
    const stayExtensions = await test.store.bookingExtensions.ofStay(id);
    expect(stayExtensions).toHaveLength(2);
    expect((await test.store.bookings.get(extensionId!))!.status).toBe('cancelled');
  });

  it('is refused when the locker is booked right after the end', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    // Another visitor holds the same locker from 15:00 (the one a visitor picks on the site).
    const stay = (await test.store.bookings.get(id))!;
    await test.cloud.context.services.bookings.hold({
      locationKey: 'oca',
      size: 'standard',
      quantity: 1,
      window: { startAt: new Date(AFTER_NOON.startTimeIso), endAt: new Date(AFTER_NOON.endTimeIso) },
      lockerNumbers: stay.lockers.map((locker) => locker.number),
    });
    const answer = await read(token);
    expect(answer.extension).toEqual({ allowed: false, refusal: 'locker_taken', options: [] });
    const refused = await extend(token, '2026-03-27T15:00:00.000Z');
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('my_booking/extension_locker_taken');
  });

  it('is refused when the stay already ends when stays by the hour must, or at an end not on offer', async () => {
    const { id, token } = await paidStay(AFTERNOON_TO_CLOSING);
    expect((await read(token)).extension).toEqual({
      allowed: false,
      refusal: 'location_closes',
      options: [],
    });
    const refused = await extend(token, '2026-03-27T22:00:00.000Z');
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('my_booking/extension_not_available');
    expect(await test.store.bookingExtensions.ofStay(id)).toEqual([]);

    const other = await paidStay(TODAY_NOON);
    const offBy = await extend(other.token, '2026-03-27T15:30:00.000Z');
    expect(offBy.status).toBe(409);
    expect(errorBodySchema.parse(await offBy.json()).error.code).toBe('my_booking/extension_not_available');
    const bad = await extend(other.token, 'tomorrow');
    expect(bad.status).toBe(400);
  });

  it('an operator gives the stay more time without charge: the offer, same PIN, history, audit trail, e-mail', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    const stay = (await test.store.bookings.get(id))!;
    const admin = { authorization: `Bearer ${await test.adminToken()}` };
    const offered = await fetch(`${test.url}/api/admin/bookings/${id}/extension`, { headers: admin });
    expect(offered.status).toBe(200);
    const offer = (await offered.json()) as MyBookingResponse['extension'];
    expect(offer).toEqual((await read(token)).extension);
    const before = await takingsToday();

    const extend = (body: unknown) =>
      fetch(`${test.url}/api/admin/bookings/${id}/extend`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await extend({ endIso: offer.options[0]!.endIso })).status).toBe(400);
    const granted = await extend({ endIso: offer.options[0]!.endIso, reason: 'Sportello bloccato' });
    expect(granted.status).toBe(200);
    const answer = (await granted.json()) as { extension: string; endIso: string };
    expect(answer.endIso).toBe(offer.options[0]!.endIso);
    await test.cloud.context.events.idle();

    const extension = (await test.store.bookings.get(answer.extension))!;
    expect(extension).toMatchObject({ status: 'confirmed', pin: stay.pin, totalCents: 0, paidAt: null });
    expect((await read(token)).endIso).toBe(offer.options[0]!.endIso);
    expect((await books(id)).at(-1)?.params).toMatchObject({ to: offer.options[0]!.endIso });
    expect((await test.store.bookings.events(answer.extension)).at(-1)).toMatchObject({
      from: 'pending',
      to: 'confirmed',
      actor: 'operator',
      reason: 'operator_extended',
      detail: 'ops@deposito.test: Sportello bloccato',
    });
    const audit = await test.store.errorLog.recent(20);
    expect(audit.find((entry) => entry.type === 'admin/booking_extended')?.message).toContain(
      // 12:00 + 4 hours in Rome.
      `Prenotazione ${id} prolungata fino al 27/03/2026 16:00 senza addebito`,
    );
    expect((await test.mails(answer.extension)).map((mail) => mail.kind)).toContain('extension');
    // Nothing was paid: the takings are as they were.
    expect((await takingsToday()).online).toBeCloseTo(before.online, 2);
  });

  it('paid after its hold lapsed: confirmed late on the same locker with the PIN, as it is still free', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    const stay = (await test.store.bookings.get(id))!;
    const option = (await read(token)).extension.options[0]!;
    const page = await (await extend(token, option.endIso)).text();
    const now = test.clock.now();
    test.clock.set(new Date(now.getTime() + 20 * 60_000));
    try {
      expect((await payOnSandbox(page)).status).toBe(303);
    } finally {
      test.clock.set(now);
    }
    const [extensionId] = await test.store.bookingExtensions.ofStay(id);
    const extension = (await test.store.bookings.get(extensionId!))!;
    expect(extension).toMatchObject({ status: 'confirmed_late', pin: stay.pin });
    expect(extension.lockers.filter((l) => l.active).map((l) => l.number)).toEqual(
      stay.lockers.map((l) => l.number),
    );
    expect((await read(token)).endIso).toBe(option.endIso);
    expect((await test.mails(extensionId)).map((mail) => mail.kind)).toContain('extension');
  });

  it('paid after the stay was cancelled: nothing to extend, the money is owed back', async () => {
    await test.store.settings.set({ [VISITOR_CANCELLATION_POLICY_SETTING]: 'until_start' }, test.clock.now());
    try {
      const { id, token } = await paidStay(TODAY_NOON);
      const option = (await read(token)).extension.options[0]!;
      const page = await (await extend(token, option.endIso)).text();
      expect((await fetch(`${test.url}/api/my-booking/${token}/cancel`, { method: 'POST' })).status).toBe(
        200,
      );
      const [extensionId] = await test.store.bookingExtensions.ofStay(id);
      // The open hold went with the stay.
      expect((await test.store.bookings.get(extensionId!))!.status).toBe('cancelled');

      expect((await payOnSandbox(page)).status).toBe(303);
      expect((await test.store.bookings.get(extensionId!))!).toMatchObject({
        status: 'failed_after_payment',
        lockers: [expect.objectContaining({ active: false })],
      });
      const log = await test.store.errorLog.recent(20);
      expect(log.map((entry) => entry.message)).toContainEqual(
        expect.stringContaining(`Extension ${extensionId} of booking ${id} was paid`),
      );
    } finally {
      await test.store.settings.set(
        { [VISITOR_CANCELLATION_POLICY_SETTING]: 'future_days_until_start' },
        test.clock.now(),
      );
    }
  });

  it('cancelling the stay refunds its extensions too; takings count each payment and each refund on its day', async () => {
    await test.store.settings.set({ [VISITOR_CANCELLATION_POLICY_SETTING]: 'until_start' }, test.clock.now());
    try {
      const before = await takingsToday();
      const { id, token } = await paidStay(TODAY_NOON);
      const option = (await read(token)).extension.options[0]!;
      await payOnSandbox(await (await extend(token, option.endIso)).text());
      const [extensionId] = await test.store.bookingExtensions.ofStay(id);
      const extension = (await test.store.bookings.get(extensionId!))!;
      expect(extension.status).toBe('confirmed');
      // Takings: the stay's price and the extension's, each on the day it was paid.
      const stayPrice = (await test.store.bookings.get(id))!.priceDiscountedCents / 100;
      const extended = await takingsToday();
      expect(extended.online).toBeCloseTo(before.online + stayPrice + option.priceCents / 100, 2);

      const cancelled = await fetch(`${test.url}/api/my-booking/${token}/cancel`, { method: 'POST' });
      expect(cancelled.status).toBe(200);
      const answer = myBookingResponseSchema.parse(await cancelled.json());
      expect(answer.status).toBe('refunded');
      expect(answer.extensions).toMatchObject([{ reference: extensionId, status: 'refunded' }]);
      expect((await test.store.bookings.events(extensionId!)).slice(-2)).toMatchObject([
        { from: 'confirmed', to: 'refund_due', actor: 'visitor', reason: 'visitor_cancelled' },
        { from: 'refund_due', to: 'refunded', actor: 'provider', reason: 'refund_made' },
      ]);
      expect(answer.extension).toEqual({ allowed: false, refusal: 'not_in_progress', options: [] });
      // Both refunds subtract on the day they were made (today here): the day nets to what it was.
      const refunded = await takingsToday();
      expect(refunded.refunds).toBeCloseTo(
        (before.refunds ?? 0) + stayPrice + extension.priceDiscountedCents / 100,
        2,
      );
      expect(refunded.online).toBeCloseTo(before.online, 2);
    } finally {
      await test.store.settings.set(
        { [VISITOR_CANCELLATION_POLICY_SETTING]: 'future_days_until_start' },
        test.clock.now(),
      );
    }
  });

  // Last: its paid stay takes one more of oca's lockers at noon.
  it('is refused when every longer stay would cost more than can be paid online', async () => {
    const { id, token } = await paidStay(TODAY_NOON);
    const location = (await test.store.locations.get('oca'))!;
    const over = MAX_EUROS * 100 + (await priceOf(3)) + 1;
    const hours = { ...location.pricing.standard.hours, 4: over, 5: over, 6: over };
    const pricing = { ...location.pricing, standard: { ...location.pricing.standard, hours } };
    await test.store.locations.save({ ...location, pricing }, test.clock.now());
    try {
      expect((await read(token)).extension).toEqual({
        allowed: false,
        refusal: 'amount_too_high',
        options: [],
      });
      const refused = await extend(token, '2026-03-27T15:00:00.000Z');
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(await refused.json()).error.code).toBe(
        'my_booking/extension_not_available',
      );
      expect(await test.store.bookingExtensions.ofStay(id)).toEqual([]);
    } finally {
      await test.store.locations.save(location, test.clock.now());
    }
  });
});
