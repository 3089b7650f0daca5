import { TEST_BOOKING_STATUSES, testBookingSchema, type LockerSize } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { z } from 'zod';
import { FORM_ERROR_CODES } from '../error-text';
import type { FormNames } from './admin-form';

export type TestStatus = (typeof TEST_BOOKING_STATUSES)[number];

export const LOCAL_FORMAT = "yyyy-MM-dd'T'HH:mm";

/** The test booking as the form holds it; times are the location's wall clock. */
export interface TestBookingForm {
  location: string;
  status: TestStatus;
  type: LockerSize;
  pin: string;
  quantity: number;
  lockerIds: number[];
  start: string;
  end: string;
  paidAt: string;
  nome: string;
  cognome: string;
  email: string;
  confermaEmail: string;
  note: string;
  priceOriginal: string;
  priceDiscounted: string;
  transactionId: string;
}

export const canPickLockers = (status: TestStatus) => status !== 'scheduled';

/** A datetime-local value read in the location's zone, as a UTC instant. */
function toUtc(local: string, zone: string): string | null {
  const time = DateTime.fromFormat(local, LOCAL_FORMAT, { zone });
  return time.isValid ? time.toUTC().toISO() : null;
}

/** Euros as typed, rounded to the cent; null when empty, NaN (refused by the schema) when not a number. */
function eurosOrNull(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : Number.NaN;
}

const text = z.string();
const testBookingFormFields = z.object({
  location: text,
  status: z.enum(TEST_BOOKING_STATUSES),
  type: z.enum(['standard', 'large']),
  pin: text,
  quantity: z.number(),
  lockerIds: z.array(z.number()),
  start: text,
  end: text,
  paidAt: text,
  nome: text,
  cognome: text,
  email: text,
  confermaEmail: text,
  note: text,
  priceOriginal: text,
  priceDiscounted: text,
  transactionId: text,
});

type TestBookingBody = z.input<typeof testBookingSchema>;

/**
 * Crea prenotazione di test: the form read into the create-test-booking request (times in the
 * chosen location's zone, empty optional fields left out, lockers only for statuses that take them)
 * and checked by the protocol's schema as the server will.
 */
export function testBookingFormSchema(zoneOf: (location: string) => string) {
  return testBookingFormFields
    .transform((form, ctx): TestBookingBody => {
      const zone = zoneOf(form.location);
      const startTime = toUtc(form.start, zone);
      const endTime = toUtc(form.end, zone);
      if (!startTime || !endTime) {
        ctx.addIssue({
          code: 'custom',
          path: [startTime ? 'end' : 'start'],
          params: { code: FORM_ERROR_CODES.periodRequired },
        });
        return z.NEVER;
      }
      const pick = canPickLockers(form.status) && form.lockerIds.length > 0;
      return {
        location: form.location,
        status: form.status,
        type: form.type,
        pin: form.pin === '' ? undefined : form.pin,
        quantity: form.quantity,
        lockerIds: pick ? form.lockerIds : undefined,
        startTime,
        endTime,
        nome: form.nome.trim(),
        cognome: form.cognome.trim(),
        email: form.email.trim(),
        confermaEmail: form.confermaEmail === '' ? undefined : form.confermaEmail.trim(),
        note: form.note,
        paidAt: form.paidAt ? toUtc(form.paidAt, zone) : null,
        priceOriginal: eurosOrNull(form.priceOriginal),
        priceDiscounted: eurosOrNull(form.priceDiscounted),
        transactionId: form.transactionId === '' ? undefined : form.transactionId,
      };
    })
    .pipe(testBookingSchema);
}

/** The page's words for what the protocol's schema refuses, by the request's paths. */
export const TEST_BOOKING_NAMES: FormNames = {
  texts: {
    location: 'Seleziona una location',
    pin: 'Il PIN deve avere 6 cifre',
    nome: 'Nome e cognome sono obbligatori',
    cognome: 'Nome e cognome sono obbligatori',
    email: "Scrivi un'email valida",
    confermaEmail: 'Le email non coincidono',
    endTime: "La fine deve essere dopo l'inizio",
    lockerIds: 'Scegli un locker per ogni unità della quantità, oppure nessuno (assegnazione automatica)',
    priceOriginal: 'Prezzo non valido',
    priceDiscounted: 'Prezzo non valido',
    transactionId: 'ID transazione non valido',
    paidAt: 'Data di pagamento non valida',
  },
  labels: { quantity: 'Quantità', note: 'Note' },
  fields: { startTime: 'start', endTime: 'end' },
};
