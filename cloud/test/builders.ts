import { randomBytes, randomUUID } from 'node:crypto';
import { transactionIdFromBytes, type LocationPricing, type LockerSize } from '@deposito/protocol';
import { BRIDGE_PROTOCOL_VERSION, type HelloMessage } from '@deposito/protocol/bridge/v1';
import type { NewBooking } from '../src/store/booking.repository';
import type { StoredBridgeEvent } from '../src/store/bridge.repository';
import type { NewDiscount } from '../src/store/discount.repository';
import type { NewLocation } from '../src/store/location.repository';
import type { Store } from '../src/store/store';

export const TEST_PRICING: LocationPricing = {
  standard: { hours: { '3': 500, '4': 600, '5': 700, '6': 800 }, days: { '1': 1200, '2': 2200, '3': 3000 } },
  large: { hours: { '3': 800, '4': 900, '5': 1000, '6': 1100 }, days: { '1': 1800, '2': 3200, '3': 4500 } },
};

export function buildLocation(overrides: Partial<NewLocation> = {}): NewLocation {
  return {
    key: 'testloc',
    name: 'Test location',
    address: 'Via di Prova 1, Roma',
    zone: 'Europe/Rome',
    maxOnline: { standard: 100, large: 100 },
    pricing: TEST_PRICING,
    openingHours: { opening: '06:00', closing: '22:00' },
    controller: { recipient: '127.0.0.1', port: 11000, key: 'testkey', mastercode: '1234', endpoint: '/' },
    ...overrides,
  };
}

/** Saves a location with `standard` lockers numbered 1… and `large` lockers numbered after them. */
export async function seedLocation(
  store: Store,
  options: { location?: Partial<NewLocation>; standard?: number; large?: number; now?: Date } = {},
): Promise<NewLocation> {
  const location = buildLocation(options.location);
  await store.locations.save(location, options.now ?? new Date('2026-01-01T00:00:00Z'));
  const standard = options.standard ?? 4;
  const large = options.large ?? 2;
  const lockers: Array<{ number: number; size: LockerSize }> = [];
  for (let i = 1; i <= standard; i += 1) lockers.push({ number: i, size: 'standard' });
  for (let i = 1; i <= large; i += 1) lockers.push({ number: standard + i, size: 'large' });
  await store.locations.addLockers(location.key, lockers);
  return location;
}

export function newTransactionId(): string {
  return transactionIdFromBytes(randomBytes(16));
}

export function buildBooking(overrides: Partial<NewBooking> = {}): NewBooking {
  return {
    transactionId: newTransactionId(),
    locationKey: 'testloc',
    status: 'pending',
    startAt: new Date('2026-03-10T09:00:00Z'),
    endAt: new Date('2026-03-10T12:00:00Z'),
    size: 'standard',
    quantity: 1,
    duration: { value: 3, unit: 'hours' },
    priceOriginalCents: 500,
    priceDiscountedCents: 500,
    feeCents: 50,
    totalCents: 550,
    discountCode: null,
    customer: { firstName: null, lastName: null, email: null, phonePrefix: null, phoneNumber: null },
    note: 'lang:it',
    lang: 'it',
    pin: '482915',
    expiresAt: new Date('2026-03-10T08:15:00Z'),
    ...overrides,
  };
}

export function buildDiscount(overrides: Partial<NewDiscount> = {}): NewDiscount {
  return {
    code: 'WELCOME10',
    description: 'Ten percent off',
    percent: 10,
    amountCents: null,
    validFrom: null,
    validTo: null,
    usableOnce: false,
    minDays: null,
    ...overrides,
  };
}

/** A visitor's details as `PATCH /api/bookings/{id}` carries them. */
export function buildCustomerDetails(overrides: Record<string, unknown> = {}) {
  return {
    nome: 'Giulia',
    cognome: "D'Angelo",
    email: 'giulia@example.com',
    conferma_email: 'giulia@example.com',
    telefono_prefisso: '+39',
    telefono_numero: '3331234567',
    ...overrides,
  };
}

/** A new location as the admin page's "Nuova sede" sends it (`POST /api/admin/locations`, euros). */
export const NEW_LOCATION_BODY = {
  id: 'nuova',
  nome: 'Deposito Nuovo',
  indirizzo: 'Via Nuova 1, Roma',
  recipient: '10.0.0.9',
  port: 11009,
  mastercode: '123456',
  lockerStructure: { standard: [1, 2, 3], large: [10] },
  maxOnline: { standard: 2, large: 1 },
  pricing: {
    standard: { hours: { '3': 5, '4': 6 }, days: { '1': 12.5 } },
    large: { hours: { '3': 7 }, days: { '1': 16 } },
  },
  orari: { apertura: '07:00', chiusura: '22:00' },
};

/** 12:00 to 15:00 in Rome on the tests' day (TEST_NOW): a daytime stay every test location offers. */
export const TODAY_NOON = {
  startTimeIso: '2026-03-27T11:00:00.000Z',
  endTimeIso: '2026-03-27T14:00:00.000Z',
};

/** `POST /api/lockers/inhibit-multi`: one standard locker at oca, 11:00–14:00 UTC on TEST_NOW's day. */
export const TODAY_HOLD_REQUEST = {
  locationKey: 'oca',
  dimensione: 'standard',
  quantita: 1,
  ...TODAY_NOON,
};

/** The payer `POST /api/payments/create-payment` carries beside the booking's `transactionId`. */
export const TEST_PAYER = {
  currency: 'EUR',
  email: 'giulia@example.com',
  nome: 'Giulia',
  cognome: 'Rossi',
  telefono: '+393331234567',
  note: 'lang:it',
};

/** What `POST /api/night-payments/create-night-payment` carries beside the stay (prices in euros, only compared). */
export const TEST_NIGHT_PAYER = {
  prezzoOriginale: 1,
  prezzoScontato: 1,
  email: 'ana@example.com',
  nome: 'Ana',
  cognome: 'García',
  telefono: '+34612345678',
  note: 'lang:es;night',
};

/** A bridge's report that a door opened (vicolo's locker 3 unless told), as the hub stores it. */
export function buildDoorOpenedEvent(
  overrides: Partial<Omit<StoredBridgeEvent, 'receivedAt'>> & { occurredAt: Date },
): Omit<StoredBridgeEvent, 'receivedAt'> {
  return {
    id: randomUUID(),
    locationKey: 'vicolo',
    seq: 1,
    kind: 'door',
    lockerId: 3,
    payload: { door: 'opened' },
    ...overrides,
  };
}

/**
 * A bridge's `hello` with nothing buffered, sent now: `bridgeVersion` names who sends it (a test, a
 * benchmark), `features` what it understands (absent: an older bridge that names none).
 */
export function buildEmptyHello(
  locationKey: string,
  bridgeVersion: string,
  features?: readonly string[],
): HelloMessage {
  return {
    type: 'hello',
    protocolVersion: BRIDGE_PROTOCOL_VERSION,
    bridgeVersion,
    locationKey,
    buffered: { results: 0, events: 0, snapshots: 0, pendingCommands: 0 },
    oldestBufferedAt: null,
    sentAt: new Date().toISOString(),
    ...(features ? { features: [...features] } : {}),
  };
}
