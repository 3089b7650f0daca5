import { LANGUAGE_LOCALE, LANGUAGE_TAG, type Language } from '@deposito/protocol/booking/note';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { formatEuros } from '@deposito/protocol/pricing/money';
import { DateTime } from 'luxon';
import { html } from '../payments/html';
import { BOOKING_EMAIL_TEXTS } from './booking-email-texts';
import type { Mailer, OutgoingMail, SentMail } from './mailer';

/**
 * confirmation: paid, lockers and PIN assigned (today's bookings, late confirmations).
 * scheduled: paid for a later day; lockers and PIN come on the day.
 * todayPin: the morning scheduler's message on that day.
 */
/** refund: money taken for a booking that is not honoured (cancelled, or not confirmable). */
/** extension: an extension of a stay is paid; the stay's locker and PIN until its new end. */
export type BookingEmailKind = 'confirmation' | 'scheduled' | 'todayPin' | 'refund' | 'extension';

export interface BookingEmailData {
  language: Language;
  to: string;
  customerName: string;
  transactionId: string;
  location: { name: string; address: string; timezone: string };
  /** UTC instants; shown in the location's zone. */
  startIso: string;
  endIso: string;
  size: LockerSize;
  quantity: number;
  lockerIds: readonly (string | number)[];
  pin: string | null;
  totalCents: number;
  /** The visitor's private booking page (absent in a refund e-mail, or when no link was minted). */
  myBookingUrl?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Header naming the booking a message is about, for support and for tests reading the outbox. */
export const BOOKING_EMAIL_HEADER = 'X-Deposito-Booking';
export const BOOKING_EMAIL_KIND_HEADER = 'X-Deposito-Email';

function formatInstant(iso: string, zone: string, locale: string): string {
  const instant = DateTime.fromISO(iso, { zone: 'utc' });
  if (!instant.isValid) throw new RangeError(`Not an ISO instant: ${iso}`);
  return instant.setZone(zone).setLocale(locale).toLocaleString({
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}

export function renderBookingEmail(kind: BookingEmailKind, data: BookingEmailData): RenderedEmail {
  const needsPin = kind === 'confirmation' || kind === 'todayPin' || kind === 'extension';
  if (needsPin && (!data.pin || data.lockerIds.length === 0)) {
    throw new RangeError(`A ${kind} e-mail needs the PIN and the lockers (booking ${data.transactionId})`);
  }
  const t = BOOKING_EMAIL_TEXTS[data.language];
  const locale = LANGUAGE_LOCALE[data.language];
  const rows: [label: string, value: string, strong?: boolean][] = [
    [t.labels.booking, data.transactionId],
    [t.labels.location, data.location.name],
    [t.labels.address, data.location.address],
    [t.labels.start, formatInstant(data.startIso, data.location.timezone, locale)],
    [t.labels.end, formatInstant(data.endIso, data.location.timezone, locale)],
    ...(needsPin ? [[t.labels.lockers, data.lockerIds.join(', ')] as [string, string]] : []),
    [t.labels.size, t.sizes[data.size]],
    [t.labels.quantity, String(data.quantity)],
    ...(needsPin ? [[t.labels.pin, data.pin ?? '', true] as [string, string, boolean]] : []),
    ...(kind !== 'todayPin'
      ? [[t.labels.total, formatEuros(data.totalCents, locale)] as [string, string]]
      : []),
  ];
  const subject = `${t.subject[kind]} – ${data.location.name}`;
  const paragraphs = [
    t.greeting(data.customerName),
    t.intro[kind],
    ...(kind === 'scheduled' ? [t.scheduledNote] : []),
  ];
  const after = [...(needsPin ? [t.pinHint] : []), t.closing];
  const link = kind !== 'refund' && data.myBookingUrl ? data.myBookingUrl : null;

  const text = [
    ...paragraphs.map((paragraph) => `${paragraph}\n`),
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    ...(link ? [t.myBooking, link, ''] : []),
    ...after.map((paragraph) => `${paragraph}\n`),
    t.signature,
    '',
  ].join('\n');

  const body = html`<!doctype html>
    <html lang="${LANGUAGE_TAG[data.language]}">
      <head>
        <meta charset="utf-8" />
        <title>${subject}</title>
      </head>
      <body
        style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827"
      >
        <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
          ${paragraphs.map((paragraph) => html`<p style="margin:0 0 12px">${paragraph}</p>`)}
          <table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0">
            ${rows.map(
              ([label, value, strong]) =>
                html`<tr>
                  <td style="padding:6px 8px;color:#6b7280;border-bottom:1px solid #e5e7eb">${label}</td>
                  <td
                    style="padding:6px 8px;border-bottom:1px solid #e5e7eb;${
                      strong ? 'font-size:24px;font-weight:bold;letter-spacing:4px' : 'font-weight:bold'
                    }"
                  >
                    ${value}
                  </td>
                </tr>`,
            )}
          </table>
          ${
            link
              ? html`<p style="margin:0 0 12px">
                  ${t.myBooking}<br /><a href="${link}" style="color:#1d4ed8;font-weight:bold">${link}</a>
                </p>`
              : ''
          }
          ${after.map((paragraph) => html`<p style="margin:0 0 12px">${paragraph}</p>`)}
          <p style="margin:0;color:#6b7280">${t.signature}</p>
        </div>
      </body>
    </html>`;

  return { subject, text, html: body.value };
}

export function sendBookingEmail(
  mailer: Mailer,
  kind: BookingEmailKind,
  data: BookingEmailData,
  idempotency?: OutgoingMail['idempotency'],
  attachments?: OutgoingMail['attachments'],
): Promise<SentMail> {
  return mailer.send({
    to: data.to,
    ...renderBookingEmail(kind, data),
    headers: { [BOOKING_EMAIL_HEADER]: data.transactionId, [BOOKING_EMAIL_KIND_HEADER]: kind },
    ...(idempotency ? { idempotency } : {}),
    ...(attachments?.length ? { attachments } : {}),
  });
}
