import { createHash } from 'node:crypto';
import {
  DEFAULT_RECEIPT_MERCHANT,
  DEFAULT_RECEIPT_VAT_PERCENT,
  errorBodySchema,
  formatEuros,
  myBookingReceiptPath,
  myBookingLinkResponseSchema,
  myBookingResendResponseSchema,
  myBookingResponseSchema,
} from '@deposito/protocol';
import { pdfPageTexts } from '@deposito/protocol/pdf/pdf-text.testing';
import { describe, expect, it } from 'vitest';
import { startPaymentTestApp } from '../../../test/payment-test-app';
import {
  bookAndPayAtOca,
  expectRefundedAfterVisitorCancel,
  MY_BOOKING_LINK,
  ocaMarchTakings,
  tokenFromMail as mailedToken,
  type HoldWindow,
} from '../../../test/my-booking-visitor';
import { apiClient, holdOverApi, TEST_NOW, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { TODAY_NOON } from '../../../test/builders';

// The visitor's private booking link (issue 16), through HTTP against the real cloud: minted when a
// paid booking's e-mail is written, carried by that e-mail, opening the booking and its calendar
// file, and answering 404 once unknown, revoked or expired. Clock: Friday 27 March 2026, 09:00 in Rome.

// Tomorrow (a later day): paid now, lockers and PIN on the morning of the day.
const TOMORROW = { startTimeIso: '2026-03-28T10:00:00.000Z', endTimeIso: '2026-03-28T13:00:00.000Z' };
/** iCalendar text with its folded lines joined and its escapes undone. */
const unfold = (ics: string) =>
  ics
    .replace(/\r\n[ \t]/g, '')
    .replace(/\\([,;\\])/g, '$1')
    .replace(/\\n/g, '\n');

describe.each(STORE_DIALECTS)('the private booking link, on %s', (dialect) => {
  const { test } = useTestApp(() => startPaymentTestApp({ dialect }));

  const bookAndPay = (window: HoldWindow) => bookAndPayAtOca(test, window);
  const tokenFromMail = (transactionId: string, kind: string) => mailedToken(test, transactionId, kind);

  const read = (token: string) => fetch(`${test.url}/api/my-booking/${token}`);

  async function expectNotFound(response: Response) {
    expect(response.status).toBe(404);
    expect(errorBodySchema.parse(await response.json()).error.code).toBe('my_booking/not_found');
  }

  it('puts a link in the confirmation e-mail that opens the paid booking, storing only its hash', async () => {
    const id = await bookAndPay(TODAY_NOON);
    const booking = (await test.store.bookings.get(id))!;
    expect(booking.status).toBe('confirmed');
    const token = await tokenFromMail(id, 'confirmation');

    // 256 random bits, not the booking id; the database holds the hash only.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toContain(id);
    const links = await test.store.bookingLinks.ofBooking(id);
    expect(links.map((link) => link.tokenHash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(links)).not.toContain(token);
    // Valid until 30 days after the booking's end.
    expect(links[0]!.expiresAt.toISOString()).toBe('2026-04-26T14:00:00.000Z');

    const response = await read(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = myBookingResponseSchema.parse(await response.json());
    expect(answer).toMatchObject({
      reference: id,
      status: 'confirmed',
      size: 'standard',
      quantity: 1,
      lockers: booking.lockers.filter((l) => l.active).map((l) => l.number),
      startIso: TODAY_NOON.startTimeIso,
      endIso: TODAY_NOON.endTimeIso,
      paidCents: booking.totalCents,
      pin: booking.pin,
      pinExpectedFrom: null,
      location: { timezone: 'Europe/Rome', openingHours: expect.any(Object) },
    });
    expect(answer.pin).toMatch(/^\d+$/);
    const location = (await test.store.locations.get('oca'))!;
    expect(answer.location.name).toBe(location.name);
    expect(answer.location.address).toBe(location.address);
    expect(answer.location.mapsUrl).toBe(
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${location.name}, ${location.address}`)}`,
    );
    const google = new URL(answer.googleCalendarUrl);
    expect(google.searchParams.get('dates')).toBe('20260327T110000Z/20260327T140000Z');
    expect(google.searchParams.get('details')).toContain(`PIN: ${booking.pin}`);
  });

  it('serves the booking as an .ics with the times, the address and the PIN in the notes', async () => {
    const id = await bookAndPay(TODAY_NOON);
    const token = await tokenFromMail(id, 'confirmation');
    const booking = (await test.store.bookings.get(id))!;
    const location = (await test.store.locations.get('oca'))!;

    const response = await fetch(`${test.url}/api/my-booking/${token}/calendar.ics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="deposito-${id}.ics"`);
    const ics = unfold(await response.text());
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain('DTSTART:20260327T110000Z');
    expect(ics).toContain('DTEND:20260327T140000Z');
    expect(ics).toContain(`LOCATION:${location.name}, ${location.address}`);
    expect(ics).toContain(`PIN: ${booking.pin}`);
    expect(ics).toContain(`Address: ${location.address}`);
    expect(ics).toContain(`Booking reference: ${id}`);
  });

  it('says when a scheduled booking gets its PIN, and shows none before', async () => {
    const id = await bookAndPay(TOMORROW);
    expect((await test.store.bookings.get(id))?.status).toBe('scheduled');
    const token = await tokenFromMail(id, 'scheduled');
    const answer = myBookingResponseSchema.parse(await (await read(token)).json());
    // 05:00 in Rome on the day (still UTC+1 on 28 March 2026).
    expect(answer).toMatchObject({ status: 'scheduled', pin: null, lockers: [] });
    expect(answer.pinExpectedFrom).toBe('2026-03-28T04:00:00.000Z');
    const ics = unfold(await (await fetch(`${test.url}/api/my-booking/${token}/calendar.ics`)).text());
    expect(ics).not.toContain('PIN:');

    // On the morning of the day the PIN e-mail carries a link too, and the first link shows the PIN.
    await test.payments.scheduler.runNow(new Date('2026-03-28T04:30:00.000Z'));
    const booking = (await test.store.bookings.get(id))!;
    expect(booking.status).toBe('confirmed');
    const todayToken = await tokenFromMail(id, 'todayPin');
    expect(todayToken).not.toBe(token);
    for (const link of [token, todayToken]) {
      expect(myBookingResponseSchema.parse(await (await read(link)).json())).toMatchObject({
        status: 'confirmed',
        pin: booking.pin,
        lockers: booking.lockers.filter((l) => l.active).map((l) => l.number),
        pinExpectedFrom: null,
      });
    }
  });

  it('gives the completion page a link for a paid booking, and none for an unpaid hold', async () => {
    const id = await bookAndPay(TODAY_NOON);
    const minted = await fetch(`${test.url}/api/bookings/${id}/my-booking-link`, { method: 'POST' });
    expect(minted.status).toBe(201);
    const { token } = myBookingLinkResponseSchema.parse(await minted.json());
    expect((await read(token)).status).toBe(200);

    const transactionId = await holdOverApi(apiClient(test.url), TODAY_NOON);
    const refused = await fetch(`${test.url}/api/bookings/${transactionId}/my-booking-link`, {
      method: 'POST',
    });
    expect(refused.status).toBe(404);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('BOOKING_NOT_FOUND');
  });

  const cancel = (token: string) => fetch(`${test.url}/api/my-booking/${token}/cancel`, { method: 'POST' });

  it('cancels a later-day booking under the default policy: refund owed, lockers freed, PIN withdrawn, e-mail', async () => {
    const id = await bookAndPay(TOMORROW);
    const token = await tokenFromMail(id, 'scheduled');
    const before = myBookingResponseSchema.parse(await (await read(token)).json());
    expect(before.cancellation).toEqual({ policy: 'future_days_until_start', allowed: true, refusal: null });
    const cancelled: string[] = [];
    const unsubscribe = test.cloud.context.events.on('booking.cancelled', (event) => {
      cancelled.push(event.booking.transactionId);
    });
    try {
      const response = await cancel(token);
      expect(response.status).toBe(200);
      const answer = myBookingResponseSchema.parse(await response.json());
      // Cancelled under the policy, then refunded by the gateway at once (the sandbox's refund).
      expect(answer).toMatchObject({ status: 'refunded', pin: null, lockers: [] });
      expect(answer.cancellation).toEqual({
        policy: 'future_days_until_start',
        allowed: false,
        refusal: 'not_paid',
      });
    } finally {
      unsubscribe();
    }
    // The same event an operator's cancellation emits (the bridge hub takes the PIN off the controller).
    expect(cancelled).toEqual([id]);
    const booking = (await test.store.bookings.get(id))!;
    expect(booking.status).toBe('refunded');
    expect(booking.lockers.filter((l) => l.active)).toEqual([]);
    await expectRefundedAfterVisitorCancel(test, id, expect.stringMatching(/^SBX-REFUND-/));
    // The refund e-mail was queued with the move; the outbox sends it.
    await test.payments.emails.deliver(id);
    expect((await test.mails(id)).map((mail) => mail.kind)).toContain('refund');
    // A second cancellation is refused, and changes nothing.
    const again = await cancel(token);
    expect(again.status).toBe(409);
    expect(errorBodySchema.parse(await again.json()).error.code).toBe('my_booking/cancel_not_allowed');
  });

  it('takings: the payment counts on the day it was taken, the refund subtracts on the day it was made', async () => {
    // A fresh operator's session each time: the clock moves a day.
    const days = () => ocaMarchTakings(test);
    const before = await days();
    const id = await bookAndPay(TOMORROW);
    const token = await tokenFromMail(id, 'scheduled');
    const price = (await test.store.bookings.get(id))!.priceDiscountedCents / 100;
    const paidDay = await days();
    expect(paidDay['27/03/2026']!.online).toBeCloseTo((before['27/03/2026']?.online ?? 0) + price, 2);

    // The next morning, before the booking starts, the visitor cancels: the gateway refunds at once.
    const now = test.clock.now();
    test.clock.set('2026-03-28T07:00:00.000Z');
    try {
      expect((await cancel(token)).status).toBe(200);
      expect((await test.store.bookings.get(id))!.status).toBe('refunded');
      const after = await days();
      // The day of the payment is as it was reported; the refund is on the 28th, taken off its online.
      expect(after['27/03/2026']).toEqual(paidDay['27/03/2026']);
      expect(after['28/03/2026']).toMatchObject({
        online: -price,
        total: after['28/03/2026']!.totem - price,
        refunds: price,
      });
    } finally {
      test.clock.set(now);
    }
  });

  const resend = (token: string) => fetch(`${test.url}/api/my-booking/${token}/resend`, { method: 'POST' });

  it("resends the confirmation to the booking's own address with a fresh link, three times an hour", async () => {
    const id = await bookAndPay(TODAY_NOON);
    const token = await tokenFromMail(id, 'confirmation');
    const response = await resend(token);
    expect(response.status).toBe(202);
    expect(myBookingResendResponseSchema.parse(await response.json())).toEqual({
      sentTo: 'g•••@example.com',
    });
    // Sent before the answer: a second confirmation with the PIN and a link of its own that works.
    const confirmations = (await test.mails(id)).filter((mail) => mail.kind === 'confirmation');
    expect(confirmations).toHaveLength(2);
    const booking = (await test.store.bookings.get(id))!;
    expect(confirmations[1]!.to).toBe('giulia@example.com');
    expect(confirmations[1]!.text).toContain(booking.pin!);
    const fresh = MY_BOOKING_LINK.exec(confirmations[1]!.text)![1]!;
    expect(fresh).not.toBe(token);
    expect((await read(fresh)).status).toBe(200);

    expect((await resend(token)).status).toBe(202);
    expect((await resend(fresh)).status).toBe(202);
    // The fourth within the hour is refused, whichever link asks, and queues nothing.
    const refused = await resend(token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('request/rate_limited');
    expect((await test.mails(id)).filter((mail) => mail.kind === 'confirmation')).toHaveLength(4);
  });

  it('resends the scheduled e-mail (no PIN yet) of a later-day booking, and nothing for a cancelled one', async () => {
    const id = await bookAndPay(TOMORROW);
    const token = await tokenFromMail(id, 'scheduled');
    expect((await resend(token)).status).toBe(202);
    expect((await test.mails(id)).filter((mail) => mail.kind === 'scheduled')).toHaveLength(2);
    expect((await cancel(token)).status).toBe(200);
    const refused = await resend(token);
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('my_booking/resend_not_available');
    expect((await test.mails(id)).filter((mail) => mail.kind === 'scheduled')).toHaveLength(2);
    await expectNotFound(await resend('not-a-real-token'));
  });

  it("lets an operator resend a booking's e-mail to its own address, recorded with who asked", async () => {
    const adminResend = async (id: string, bearer: string | null) => {
      const response = await fetch(`${test.url}/api/admin/bookings/${id}/resend`, {
        method: 'POST',
        headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const admin = await test.adminToken();
    const paid = await bookAndPay(TODAY_NOON);
    expect((await adminResend(paid, null)).status).toBe(401);

    const answer = await adminResend(paid, admin);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toContain('giulia@example.com');
    const confirmations = (await test.mails(paid)).filter((mail) => mail.kind === 'confirmation');
    expect(confirmations).toHaveLength(2);
    expect(confirmations[1]!.to).toBe('giulia@example.com');
    expect(confirmations[1]!.text).toContain((await test.store.bookings.get(paid))!.pin!);
    const log = await test.store.errorLog.recent(20);
    expect(log.find((entry) => entry.type === 'admin/booking_email_resent')?.message).toMatch(
      new RegExp(`${paid}.*\\(da `),
    );

    const scheduled = await bookAndPay(TOMORROW);
    expect((await adminResend(scheduled, admin)).status).toBe(200);
    expect((await test.mails(scheduled)).filter((mail) => mail.kind === 'scheduled')).toHaveLength(2);

    // A hold that was never paid has nothing to send; an unknown booking is not found.
    const unpaid = await holdOverApi(apiClient(test.url), TODAY_NOON);
    const refused = await adminResend(unpaid, admin);
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(refused.body).error.code).toBe('my_booking/resend_not_available');
    expect(await test.mails(unpaid)).toHaveLength(0);
    // Its locker goes back on sale for the tests after this one.
    expect((await fetch(`${test.url}/api/bookings/${unpaid}/cancel`, { method: 'POST' })).status).toBe(200);
    expect((await adminResend('BOOKING-aaaaaaaaaaaaaaaaaaaaaa', admin)).status).toBe(404);
  });

  it('gives a paid booking its PDF receipt, on the page and attached to the e-mail, with the merchant and VAT set', async () => {
    await test.store.settings.set(
      {
        RECEIPT_MERCHANT: 'Deposito Roma S.r.l.\nVia Nazionale 1, Roma\nP.IVA 01234567890',
        RECEIPT_VAT_PERCENT: 10,
      },
      new Date(TEST_NOW),
    );
    try {
      const id = await bookAndPay(TOMORROW);
      const token = await tokenFromMail(id, 'scheduled');
      const booking = (await test.store.bookings.get(id))!;
      const total = formatEuros(booking.totalCents, 'en-IE').replace(/\u00a0/g, ' ');
      const vat = formatEuros(
        booking.totalCents - Math.round((booking.totalCents * 100) / 110),
        'en-IE',
      ).replace(/\u00a0/g, ' ');
      expect(myBookingResponseSchema.parse(await (await read(token)).json()).receipt).toBe(true);

      const response = await fetch(`${test.url}${myBookingReceiptPath(token)}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="deposito-receipt-${id}.pdf"`,
      );
      const [page] = pdfPageTexts(new Uint8Array(await response.arrayBuffer())).map((text) =>
        text.replace(/\u00a0/g, ' '),
      );
      for (const line of [
        'Receipt',
        id,
        'Deposito Roma S.r.l.',
        'P.IVA 01234567890',
        'Total paid',
        total,
        'of which VAT 10%',
        vat,
      ]) {
        expect(page).toContain(line);
      }

      // The same receipt went with the e-mail.
      const mail = (await test.mails(id)).find((m) => m.kind === 'scheduled')!;
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0]).toMatchObject({
        filename: `deposito-receipt-${id}.pdf`,
        contentType: 'application/pdf',
      });
      expect(pdfPageTexts(new Uint8Array(mail.attachments[0]!.content))[0]).toContain('Total paid');

      // Cancelled with a refund owed: no receipt any more.
      expect((await cancel(token)).status).toBe(200);
      expect(myBookingResponseSchema.parse(await (await read(token)).json()).receipt).toBe(false);
      const refused = await fetch(`${test.url}${myBookingReceiptPath(token)}`);
      expect(refused.status).toBe(409);
      expect(errorBodySchema.parse(await refused.json()).error.code).toBe('my_booking/receipt_not_available');
      // The refund e-mail carries none.
      await test.payments.emails.deliver(id);
      expect((await test.mails(id)).find((m) => m.kind === 'refund')!.attachments).toEqual([]);
      await expectNotFound(await fetch(`${test.url}${myBookingReceiptPath('not-a-real-token')}`));
    } finally {
      await test.store.settings.set(
        { RECEIPT_MERCHANT: DEFAULT_RECEIPT_MERCHANT, RECEIPT_VAT_PERCENT: DEFAULT_RECEIPT_VAT_PERCENT },
        new Date(TEST_NOW),
      );
    }
  });

  it('refuses outside the policy with 409: a same-day booking by default, any booking once started', async () => {
    const id = await bookAndPay(TODAY_NOON);
    const token = await tokenFromMail(id, 'confirmation');
    const answer = myBookingResponseSchema.parse(await (await read(token)).json());
    expect(answer.cancellation).toEqual({
      policy: 'future_days_until_start',
      allowed: false,
      refusal: 'same_day',
    });
    const refused = await cancel(token);
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('my_booking/cancel_not_allowed');
    expect((await test.store.bookings.get(id))?.status).toBe('confirmed');

    // The policy is a system setting the server reads: until_start allows the same-day booking…
    await test.store.settings.set({ VISITOR_CANCELLATION_POLICY: 'until_start' }, test.clock.now());
    try {
      const allowed = myBookingResponseSchema.parse(await (await read(token)).json());
      expect(allowed.cancellation).toEqual({ policy: 'until_start', allowed: true, refusal: null });
      // …until it starts.
      test.clock.set(TODAY_NOON.startTimeIso);
      const started = await cancel(token);
      expect(started.status).toBe(409);
      expect(errorBodySchema.parse(await started.json()).error.code).toBe('my_booking/cancel_not_allowed');
      expect((await test.store.bookings.get(id))?.status).toBe('confirmed');
    } finally {
      test.clock.set(TEST_NOW);
      await test.store.settings.set(
        { VISITOR_CANCELLATION_POLICY: 'future_days_until_start' },
        test.clock.now(),
      );
    }
  });

  it('answers 404 for an unknown, a malformed, a revoked and an expired link', async () => {
    await expectNotFound(await read('A'.repeat(43)));
    await expectNotFound(await read('not a token!'));
    await expectNotFound(await fetch(`${test.url}/api/my-booking/${'B'.repeat(43)}/calendar.ics`));

    const id = await bookAndPay(TODAY_NOON);
    const token = await tokenFromMail(id, 'confirmation');
    const minted = await fetch(`${test.url}/api/bookings/${id}/my-booking-link`, { method: 'POST' });
    const other = myBookingLinkResponseSchema.parse(await minted.json()).token;
    // Revoking one link leaves the booking's other links working.
    const hash = createHash('sha256').update(token).digest('hex');
    expect(await test.store.bookingLinks.revoke(id, test.clock.now(), hash)).toBe(1);
    await expectNotFound(await read(token));
    await expectNotFound(await fetch(`${test.url}/api/my-booking/${token}/calendar.ics`));
    expect((await read(other)).status).toBe(200);

    // 30 days after the booking's end the link lapses.
    test.clock.set('2026-04-26T13:59:59.000Z');
    expect((await read(other)).status).toBe(200);
    test.clock.set('2026-04-26T14:00:00.000Z');
    await expectNotFound(await read(other));
  });
});
