import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BOOKING_EMAIL_HEADER,
  BOOKING_EMAIL_KIND_HEADER,
  renderBookingEmail,
  sendBookingEmail,
  type BookingEmailData,
} from './booking-email';
import { createMailer, type Mailer } from './mailer';
import { readOutbox } from './outbox';

const rome = { name: 'Termini', address: 'Via Marsala 29, Roma', timezone: 'Europe/Rome' };
const london = { name: 'Campo', address: '12 Camden High St, London', timezone: 'Europe/London' };

function booking(overrides: Partial<BookingEmailData> = {}): BookingEmailData {
  return {
    language: 'it',
    to: 'mario.rossi@example.com',
    customerName: 'Mario Rossi',
    transactionId: 'BOOKING-1743322500000-ab12',
    location: rome,
    // The spring DST change day: 08:15 UTC is 10:15 in Rome and 09:15 in London.
    startIso: '2025-03-30T08:15:00.000Z',
    endIso: '2025-03-30T11:15:00.000Z',
    size: 'large',
    quantity: 2,
    lockerIds: [12, 14],
    pin: '482913',
    totalCents: 2450,
    ...overrides,
  };
}

/** Each line is in the text (checked one by one, so a failure names the line). */
function expectLinesIn(text: string, lines: readonly string[]): void {
  for (const line of lines) expect(text).toContain(line);
}

describe('booking e-mail templates', () => {
  it('confirms in Italian with times in the location zone, lockers, PIN and total', () => {
    const email = renderBookingEmail('confirmation', booking());
    expect(email.subject).toBe('Prenotazione confermata – Termini');
    expectLinesIn(email.text, [
      'Ciao Mario Rossi,',
      'Codice prenotazione: BOOKING-1743322500000-ab12',
      'Indirizzo: Via Marsala 29, Roma',
      'Inizio: domenica 30 marzo 2025 alle ore 10:15 CEST',
      'Fine: domenica 30 marzo 2025 alle ore 13:15 CEST',
      'Locker: 12, 14',
      'Dimensione: Grande',
      'Quantità: 2',
      'PIN: 482913',
      'Totale pagato: 24,50\u00a0€',
    ]);
    expect(email.html).toContain('<html lang="it">');
    expect(email.html).toContain('482913');
  });

  it('writes English, Spanish and Japanese, and uses London time for the London location', () => {
    const english = renderBookingEmail(
      'confirmation',
      booking({ language: 'en', location: london, size: 'standard' }),
    );
    expect(english.subject).toBe('Booking confirmed – Campo');
    expectLinesIn(english.text, [
      'Start: Sunday, 30 March 2025 at 09:15 BST',
      'Size: Standard',
      'Total paid: €24.50',
    ]);

    const spanish = renderBookingEmail('confirmation', booking({ language: 'es' }));
    expect(spanish.subject).toBe('Reserva confirmada – Termini');
    expect(spanish.text).toContain('Inicio: domingo, 30 de marzo de 2025, 10:15 CEST');
    expect(spanish.text).toContain('Taquilla: 12, 14');

    const japanese = renderBookingEmail('confirmation', booking({ language: 'jp' }));
    expect(japanese.subject).toBe('ご予約が確定しました – Termini');
    expectLinesIn(japanese.text, ['Mario Rossi 様', '開始: 2025年3月30日日曜日 10:15', 'サイズ: 大型']);
    expect(japanese.html).toContain('<html lang="ja">');
  });

  it('tells a scheduled booking that PIN and locker come on the day, and shows neither', () => {
    const email = renderBookingEmail('scheduled', booking({ pin: null, lockerIds: [] }));
    expect(email.subject).toBe('Prenotazione registrata – Termini');
    expect(email.text).toContain('Il PIN e il locker ti verranno assegnati il giorno della prenotazione');
    expect(email.text).not.toContain('PIN:');
    expect(email.text).not.toContain('Locker:');
    expect(email.text).toContain('Totale pagato: 24,50\u00a0€');
    const english = renderBookingEmail('scheduled', booking({ language: 'en', pin: null, lockerIds: [] }));
    expect(english.text).toContain('Your PIN and locker will be assigned on the day of your booking');
  });

  it("sends today's PIN on the morning of a scheduled booking", () => {
    const email = renderBookingEmail('todayPin', booking({ language: 'en', lockerIds: ['7'], quantity: 1 }));
    expect(email.subject).toBe('Your PIN for today – Termini');
    expectLinesIn(email.text, ['your booking starts today', 'PIN: 482913', 'Locker: 7']);
  });

  it('refuses to confirm without a PIN or lockers', () => {
    expect(() => renderBookingEmail('confirmation', booking({ pin: null }))).toThrow(RangeError);
    expect(() => renderBookingEmail('todayPin', booking({ lockerIds: [] }))).toThrow(RangeError);
  });

  it('escapes customer-supplied text in the HTML part', () => {
    const email = renderBookingEmail(
      'confirmation',
      booking({ customerName: '<img src=x onerror=alert(1)>' }),
    );
    expect(email.html).not.toContain('<img src=x');
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('booking e-mails in the outbox', () => {
  let directory: string;
  let mailer: Mailer;

  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'deposito-outbox-'));
    mailer = createMailer({
      from: 'Deposito <no-reply@deposito.test>',
      transport: { kind: 'outbox', directory },
    });
  });
  afterEach(async () => {
    mailer.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('writes a readable .eml file with both parts, in the booking language', async () => {
    const sent = await sendBookingEmail(mailer, 'confirmation', booking({ language: 'jp' }));
    expect(sent.file).toMatch(/\.eml$/);
    const [message, ...others] = await readOutbox(directory);
    expect(others).toHaveLength(0);
    expect(message!.file).toBe(sent.file);
    expect(message!.from).toBe('Deposito <no-reply@deposito.test>');
    expect(message!.to).toBe('mario.rossi@example.com');
    expect(message!.subject).toBe('ご予約が確定しました – Termini');
    expect(message!.headers[BOOKING_EMAIL_HEADER.toLowerCase()]).toBe('BOOKING-1743322500000-ab12');
    expect(message!.headers[BOOKING_EMAIL_KIND_HEADER.toLowerCase()]).toBe('confirmation');
    expect(message!.text).toContain('PINコード: 482913');
    expect(message!.text).toContain('ロッカー: 12, 14');
    expect(message!.html).toContain('482913');
  });

  it('keeps messages in the order they were sent', async () => {
    await sendBookingEmail(mailer, 'scheduled', booking({ pin: null, lockerIds: [] }));
    await sendBookingEmail(mailer, 'todayPin', booking());
    const messages = await readOutbox(directory);
    expect(messages.map((message) => message.headers[BOOKING_EMAIL_KIND_HEADER.toLowerCase()])).toEqual([
      'scheduled',
      'todayPin',
    ]);
    expect(messages[0]!.text).toContain('Il PIN e il locker ti verranno assegnati');
  });

  it('reads an empty or missing outbox as no mail', async () => {
    expect(await readOutbox(directory)).toEqual([]);
    expect(await readOutbox(path.join(directory, 'missing'))).toEqual([]);
  });
});
