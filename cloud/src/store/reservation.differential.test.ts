import fc from 'fast-check';
import type { LockerSize } from '@deposito/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBooking, newTransactionId, seedLocation } from '../../test/builders';
import { createTestDatabase, type TestDatabase } from '../../test/test-store';
import type { BookingRecord, ReservationResult } from './booking.repository';
import type { Store } from './store';

// The reservation rule is written twice: in TypeScript for SQLite (store/booking.repository.ts)
// and in PL/pgSQL for PostgreSQL (the reserve_lockers function). This differential property test
// replays the same random sequences of holds (new and moved), payments, cancellations, refunds and
// expiries on both databases and requires the same outcome at every step: which lockers, which
// PIN, which refusal and how many were left, which holds lapsed, and the bookings at the end.

const PIN_POOL = ['111111', '222222', '333333', '444444'];
const SLOTS = 5;
const START = Date.UTC(2026, 4, 4, 6, 0);

type Operation =
  | {
      kind: 'hold';
      slot: number;
      day: number;
      startHour: number;
      hours: number;
      size: LockerSize;
      quantity: number;
      maxOnline: number;
      pinOffset: number;
      move: boolean;
    }
  | { kind: 'pay'; slot: number }
  | { kind: 'cancel'; slot: number }
  | { kind: 'refund'; slot: number }
  | { kind: 'tick'; minutes: number };

const slot = fc.integer({ min: 0, max: SLOTS - 1 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('hold' as const),
      slot,
      day: fc.integer({ min: 0, max: 2 }),
      startHour: fc.integer({ min: 8, max: 18 }),
      hours: fc.integer({ min: 1, max: 6 }),
      size: fc.constantFrom<LockerSize>('standard', 'large'),
      quantity: fc.integer({ min: 1, max: 3 }),
      maxOnline: fc.integer({ min: 1, max: 6 }),
      pinOffset: fc.integer({ min: 0, max: PIN_POOL.length - 1 }),
      move: fc.boolean(),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant('pay' as const), slot }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('cancel' as const), slot }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), slot }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('tick' as const), minutes: fc.integer({ min: 1, max: 20 }) }),
    weight: 2,
  },
);

/** One run's operations with the booking ids fixed up front, so both databases see the same ids. */
interface Script {
  locationKey: string;
  steps: Array<{ operation: Operation; transactionId: string | null; replaceHold: boolean }>;
}

function script(run: number, operations: Operation[]): Script {
  const ids: Array<string | null> = Array.from({ length: SLOTS }, () => null);
  const steps = operations.map((operation) => {
    if (operation.kind === 'tick') return { operation, transactionId: null, replaceHold: false };
    if (operation.kind === 'hold') {
      const existing = ids[operation.slot];
      const replaceHold = operation.move && existing !== null;
      const transactionId = replaceHold ? existing! : newTransactionId();
      ids[operation.slot] = transactionId;
      return { operation, transactionId, replaceHold };
    }
    return { operation, transactionId: ids[operation.slot] ?? null, replaceHold: false };
  });
  return { locationKey: `diff${run}`, steps };
}

const activeLockers = (booking: BookingRecord) =>
  booking.lockers
    .filter((locker) => locker.active)
    .map((locker) => locker.number)
    .sort((a, b) => a - b);

function reservationOutcome(result: ReservationResult) {
  if (!result.ok) return result;
  return { ok: true, lockers: activeLockers(result.booking), pin: result.booking.pin };
}

/** Plays a script on one store; every step's outcome, then every booking as it ends up. */
async function play(store: Store, { locationKey, steps }: Script): Promise<unknown[]> {
  await seedLocation(store, {
    location: { key: locationKey, name: `Differential ${locationKey}` },
    standard: 4,
    large: 2,
  });
  const trace: unknown[] = [];
  const mine = new Set<string>();
  let now = new Date(START);
  for (const { operation, transactionId, replaceHold } of steps) {
    if (operation.kind === 'tick') {
      now = new Date(now.getTime() + operation.minutes * 60_000);
      const expired = (await store.bookings.expirePending(now)).filter((id) => mine.has(id));
      trace.push({ tick: expired.sort() });
      continue;
    }
    if (!transactionId) {
      trace.push({ [operation.kind]: 'no booking' });
      continue;
    }
    if (operation.kind === 'hold') {
      mine.add(transactionId);
      const startAt = new Date(START + operation.day * 86_400_000 + (operation.startHour - 6) * 3_600_000);
      const result = await store.bookings.reserveLockers({
        booking: buildBooking({
          transactionId,
          locationKey,
          startAt,
          endAt: new Date(startAt.getTime() + operation.hours * 3_600_000),
          size: operation.size,
          quantity: operation.quantity,
          duration: { value: operation.hours, unit: 'hours' },
          pin: null,
          expiresAt: new Date(now.getTime() + 15 * 60_000),
        }),
        maxOnline: operation.maxOnline,
        now,
        replaceHold,
        pinCandidates: [
          ...PIN_POOL.slice(operation.pinOffset),
          ...PIN_POOL.slice(0, operation.pinOffset),
        ].slice(0, 2),
      });
      trace.push({ hold: reservationOutcome(result) });
      continue;
    }
    const moves = {
      pay: {
        from: ['pending', 'paying'],
        to: 'confirmed',
        actor: 'provider',
        reason: 'paid',
        paidAt: now,
      },
      cancel: {
        from: ['pending', 'paying', 'payment_declined'],
        to: 'cancelled',
        actor: 'visitor',
        reason: 'visitor_cancelled',
      },
      refund: { from: ['confirmed'], to: 'refund_due', actor: 'operator', reason: 'operator_cancelled' },
    } as const;
    const moved = await store.bookings.transition(transactionId, { ...moves[operation.kind], now });
    trace.push({ [operation.kind]: moved ? { status: moved.status, lockers: activeLockers(moved) } : null });
  }
  for (const id of [...mine].sort()) {
    const booking = await store.bookings.get(id);
    trace.push({
      end: booking && { status: booking.status, lockers: activeLockers(booking), pin: booking.pin },
    });
  }
  return trace;
}

describe('the reservation rule on SQLite and on PostgreSQL', () => {
  let sqliteDatabase: TestDatabase;
  let postgresDatabase: TestDatabase;
  let sqlite: Store;
  let postgres: Store;
  let run = 0;

  beforeAll(async () => {
    sqliteDatabase = await createTestDatabase('sqlite');
    postgresDatabase = await createTestDatabase('postgres');
    sqlite = await sqliteDatabase.open();
    postgres = await postgresDatabase.open();
  });

  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
    await sqliteDatabase?.dispose();
    await postgresDatabase?.dispose();
  });

  it('answers every random sequence of holds, moves, payments, cancellations and expiries alike', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        const played = script((run += 1), operations);
        const onSqlite = await play(sqlite, played);
        const onPostgres = await play(postgres, played);
        expect(onPostgres).toEqual(onSqlite);
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('is not vacuous: the sequences reach refusals, moves, lapses and PIN exhaustion', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 10, maxLength: 30 }), async (operations) => {
        for (const entry of (await play(sqlite, script((run += 1), operations))) as Array<
          Record<string, unknown>
        >) {
          const hold = entry.hold as { ok?: boolean; reason?: string } | undefined;
          if (hold) seen.add(hold.ok ? 'held' : (hold.reason ?? 'refused'));
          if (Array.isArray(entry.tick) && entry.tick.length > 0) seen.add('lapsed');
          if ((entry.refund as { status?: string } | null | undefined)?.status === 'refund_due')
            seen.add('refunded');
        }
      }),
      { numRuns: 40, seed: 20261126 },
    );
    expect([...seen].sort()).toEqual([
      'held',
      'hold_missing',
      'lapsed',
      'pins_taken',
      'refunded',
      'unavailable',
    ]);
  }, 120_000);
});
