import { fc, test } from '@fast-check/vitest';
import {
  ACTIVE_BOOKING_STATUSES,
  BOOKING_STATUSES,
  bookingPriceCents,
  bookingTotals,
  HOLD_BOOKING_STATUSES,
  ONLINE_TAKINGS_STATUSES,
  PAID_BOOKING_STATUSES,
  REFUND_OWED_STATUSES,
  type AppliedDiscount,
  type BookingStatus,
  type LockerSize,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLocation } from '../../test/builders';
import { startPaymentTestApp, TEST_SANDBOX, type PaymentTestApp } from '../../test/payment-test-app';
import {
  createTestDatabase,
  emptyTestDatabase,
  STORE_DIALECTS,
  type StoreDialect,
  type TestDatabase,
} from '../../test/test-store';
import { pinOnLocker, syncAllPins } from '../bridge-hub/booking-commands';
import type { AppBase } from '../app-context';
import type { BridgeHub } from '../bridge-hub/bridge-hub';
import { centsToGatewayAmount } from '../payments/gateway-amount';
import { PAYMENT_NOTIFICATION_PATH } from '../payments/payment-gateway';
import { SandboxTokens } from '../payments/sandbox-tokens';
import type { BookingEvent, BookingRecord } from '../store/booking.repository';
import type { BridgeCommandRecord } from '../store/bridge.repository';
import type { DiscountRecord } from '../store/discount.repository';
import type { LocationRecord } from '../store/location.repository';
import { StoreLockerControl, type LockerControl } from './locker-control';

// A model-based test of the booking core (issue 13): fast-check drives random sequences of what
// visitors, the payment provider, operators, the scheduler and the clock do, through the real
// cloud over HTTP on SQLite and on PostgreSQL, and after every step checks what must always hold:
//   - money: no paid booking whose verified payment differs from its total, and no total that
//     differs from the protocol's price for what is booked; money received for a booking that is
//     not honoured is owed back (failed_after_payment / refund_due), a second payment is flagged;
//   - lockers: no locker with two live bookings at once;
//   - takings: every live paid booking counted once, nothing counted that is not paid;
//   - doors: each locker's next live paid booking has its PIN on the way to the controller (or
//     the operators were told), and no booking that ended unpaid or was cancelled keeps one there;
//   - history: every booking's last recorded move is its status.
// On failure fast-check prints the seed and path: MODEL_SEED=<seed> MODEL_PATH=<path> replays it.

const LOCATION = 'tiny';
const ZONE = 'Europe/Rome';
const SHOP = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.shopLogin : '';
const SECRET = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.secret : '';
const CODES = ['', '', 'WELCOME10', 'FIVEOFF', 'ONCE20'] as const;
const PAYER = {
  currency: 'EUR',
  email: 'model@example.com',
  nome: 'Mario',
  cognome: 'Model',
  telefono: '+393331234567',
  note: 'lang:it',
};
const RUNS: Record<StoreDialect, { runs: number; steps: number }> = {
  sqlite: { runs: 10, steps: 300 },
  postgres: { runs: 8, steps: 250 },
};

interface Checkout {
  transactionId: string;
  amountCents: number;
}

interface Notification {
  transactionId: string;
  fields: Record<string, string>;
}

/** What the test knows happened outside the cloud: checkouts opened and money the gateway took. */
interface Model {
  ids: string[];
  checkouts: Checkout[];
  notifications: Notification[];
  /** Amounts (and references) the gateway took per booking: real money, whatever our answer. */
  paid: Map<string, Array<{ amountCents: number; reference: string }>>;
  /** Each booking as the last check saw it: a booking that disappears must have been deletable. */
  seen: Map<string, { status: BookingStatus; endAt: Date }>;
  steps: number;
}

interface Real {
  app: PaymentTestApp;
  adminToken: string | null;
}

type Command = fc.AsyncCommand<Model, Real>;

async function call(real: Real, method: string, path: string, body?: unknown, admin = false) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (admin) {
    real.adminToken ??= await real.app.adminToken();
    headers.authorization = `Bearer ${real.adminToken}`;
  }
  const response = await fetch(`${real.app.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (admin && response.status === 401) real.adminToken = null;
  expect(
    response.status,
    `${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`,
  ).toBeLessThan(500);
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // An HTML page.
  }
  return { status: response.status, body: parsed };
}

/** A start the pages offer: a whole hour from 10:00 to 16:00, today or on one of the next days. */
function windowFor(now: Date, dayOffset: number, hour: number, hours: number) {
  let start = DateTime.fromJSDate(now, { zone: ZONE }).startOf('day').plus({ days: dayOffset }).set({ hour });
  if (start.toMillis() < now.getTime() + 5 * 60_000) start = start.plus({ days: 1 });
  return { startTimeIso: start.toUTC().toISO()!, endTimeIso: start.plus({ hours }).toUTC().toISO()! };
}

/** Index into a growing list: mostly one of the latest few (a visitor goes on with their booking), else any. */
const indexArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 2 }).map((back) => -1 - back) },
  { weight: 1, arbitrary: fc.nat() },
);

const pick = <T>(list: readonly T[], index: number): T | undefined => {
  if (list.length === 0) return undefined;
  return index < 0 ? list[Math.max(0, list.length + index)] : list[index % list.length];
};

function command(name: string, run: (model: Model, real: Real) => Promise<void>): Command {
  return {
    check: () => true,
    run: async (model, real) => {
      model.steps += 1;
      await run(model, real);
      await real.app.cloud.context.events.idle();
      if (process.env.MODEL_TRACE) {
        const last = model.ids.at(-1);
        const booking = last ? await real.app.store.bookings.get(last) : null;
        console.info(`${name} → ${last ?? '-'} ${booking?.status ?? ''} ${booking?.totalCents ?? ''}`);
      }
      await checkInvariants(model, real, name);
    },
    toString: () => name,
  };
}

const holdArb = fc
  .record({
    size: fc.constantFrom<LockerSize>('standard', 'standard', 'large'),
    quantity: fc.integer({ min: 1, max: 2 }),
    day: fc.integer({ min: 0, max: 2 }),
    hour: fc.integer({ min: 10, max: 16 }),
    hours: fc.integer({ min: 1, max: 4 }),
    replace: fc.option(indexArb, { freq: 3 }),
  })
  .map((h) =>
    command(`hold(${JSON.stringify(h)})`, async (model, real) => {
      await holdLockers(model, real, h, h.replace === null ? undefined : pick(model.ids, h.replace));
    }),
  );

/** The visitor's hold (a new one, or `transactionId` moved); its id once held. */
async function holdLockers(
  model: Model,
  real: Real,
  h: { size: LockerSize; quantity: number; day: number; hour: number; hours: number },
  transactionId: string | undefined,
): Promise<string | null> {
  const answer = await call(real, 'POST', '/api/lockers/inhibit-multi', {
    locationKey: LOCATION,
    dimensione: h.size,
    quantita: h.quantity,
    ...(transactionId ? { transactionId } : {}),
    ...windowFor(real.app.clock.now(), h.day, h.hour, h.hours),
  });
  const id = (answer.body as { transactionId?: string }).transactionId;
  if (answer.status !== 200 || !id) return null;
  if (!model.ids.includes(id)) model.ids.push(id);
  return id;
}

/** The payment page opened for a hold (or reopened); the checkout it charges, when it opened. */
async function openCheckout(
  model: Model,
  real: Real,
  transactionId: string,
  p: { code: string; retry: boolean },
): Promise<Checkout | null> {
  const answer = p.retry
    ? await call(real, 'POST', '/api/payments/retry', { transactionId })
    : await call(real, 'POST', '/api/payments/create-payment', {
        ...PAYER,
        transactionId,
        codiceSconto: p.code,
      });
  if (answer.status !== 200) return null;
  // The page charges what the booking costs as the page is made; nothing may change it since.
  const booking = await real.app.store.bookings.get(transactionId);
  const checkout = { transactionId, amountCents: booking!.totalCents };
  model.checkouts.push(checkout);
  return checkout;
}

const createPaymentArb = fc
  .record({ booking: indexArb, code: fc.constantFrom(...CODES), retry: fc.boolean() })
  .map((p) =>
    command(`pay(${JSON.stringify(p)})`, async (model, real) => {
      const transactionId = pick(model.ids, p.booking);
      if (transactionId) await openCheckout(model, real, transactionId, p);
    }),
  );

const providerArb = fc
  .record({
    checkout: indexArb,
    result: fc.constantFrom('OK', 'OK', 'OK', 'KO', 'KO', 'ABANDON', 'XX'),
    // Mostly the checkout's own amount; now and then a gateway that charged something else.
    wrongAmount: fc.oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.integer({ min: -2000, max: 2000 }).filter((d) => d !== 0) },
    ),
  })
  .map((p) =>
    command(`provider(${JSON.stringify(p)})`, async (model, real) => {
      const checkout = pick(model.checkouts, p.checkout);
      if (checkout) await gatewayResult(model, real, checkout, p.result, p.wrongAmount);
    }),
  );

/** The gateway's notification of a checkout's outcome (money taken when OK, whatever our answer). */
async function gatewayResult(
  model: Model,
  real: Real,
  checkout: Checkout,
  result: 'OK' | 'KO' | 'ABANDON' | 'XX',
  wrongAmount: number | null,
): Promise<void> {
  const amountCents = Math.max(1, checkout.amountCents + (wrongAmount ?? 0));
  const reference = `BANK-${model.steps}`;
  const ok = result === 'OK';
  const fields = {
    shopTransactionID: checkout.transactionId,
    transactionResult: ok ? 'OK' : result === 'XX' ? 'XX' : 'KO',
    bankTransactionID: ok ? reference : '',
    paymentID: `SBX-${model.steps}`,
    amount: centsToGatewayAmount(amountCents),
    currency: 'EUR',
    errorCode: result === 'ABANDON' ? '1143' : result === 'KO' ? '1' : '0',
    errorDescription: result === 'KO' ? 'Declined' : '',
  };
  if (ok) {
    const list = model.paid.get(checkout.transactionId) ?? [];
    list.push({ amountCents, reference });
    model.paid.set(checkout.transactionId, list);
  }
  model.notifications.push({ transactionId: checkout.transactionId, fields });
  await notify(real, fields);
}

/**
 * The common case in one step: a visitor who holds, opens the payment page and pays at once. Without
 * it, paid bookings are rare among random steps and the invariants about them have little to check.
 */
const bookAndPayArb = fc
  .record({
    size: fc.constantFrom<LockerSize>('standard', 'standard', 'large'),
    quantity: fc.constant(1),
    day: fc.integer({ min: 0, max: 2 }),
    hour: fc.integer({ min: 10, max: 16 }),
    hours: fc.integer({ min: 1, max: 4 }),
    code: fc.constantFrom(...CODES),
  })
  .map((b) =>
    command(`bookAndPay(${JSON.stringify(b)})`, async (model, real) => {
      const transactionId = await holdLockers(model, real, b, undefined);
      const checkout = transactionId
        ? await openCheckout(model, real, transactionId, { code: b.code, retry: false })
        : null;
      if (checkout) await gatewayResult(model, real, checkout, 'OK', null);
    }),
  );

const replayArb = indexArb.map((index) =>
  command(`replay(${index})`, async (model, real) => {
    const notification = pick(model.notifications, index);
    if (notification) await notify(real, notification.fields);
  }),
);

const cancelArb = indexArb.map((index) =>
  command(`cancel(${index})`, async (model, real) => {
    const transactionId = pick(model.ids, index);
    if (transactionId) await call(real, 'POST', `/api/bookings/${transactionId}/cancel`);
  }),
);

const operatorArb = fc
  .record({
    locker: fc.integer({ min: 1, max: 3 }),
    action: fc.constantFrom('unbook-soap', 'unbook', 'inhibit'),
    refund: fc.option(fc.boolean(), { freq: 3 }),
    confirm: fc.boolean(),
  })
  .map((o) =>
    command(`operator(${JSON.stringify(o)})`, async (_model, real) => {
      await call(
        real,
        'POST',
        `/api/lockers/${o.action}`,
        {
          location: LOCATION,
          lockerId: o.locker,
          ...(o.confirm ? { confirm: true, reason: 'model test' } : {}),
          ...(o.refund === null ? {} : { refund: o.refund }),
        },
        true,
      );
    }),
  );

const cleanupArb = fc
  .record({ olderThanDays: fc.constantFrom(0, 1), excludeWithLocker: fc.boolean() })
  .map((c) =>
    command(`cleanup(${JSON.stringify(c)})`, async (_model, real) => {
      await call(real, 'POST', '/api/admin/cleanup/execute', { statuses: [...BOOKING_STATUSES], ...c }, true);
    }),
  );

const expireArb = fc.constant(
  command('expire', async (_model, real) => {
    await real.app.cloud.expirePendingBookings();
  }),
);

const morningArb = fc.constant(
  command('morning', async (_model, real) => {
    await call(real, 'POST', '/api/system/admin/run-morning-scheduler', {}, true);
  }),
);

const clockArb = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: 20 }) },
    { weight: 1, arbitrary: fc.constant(24 * 60) },
  )
  .map((minutes) =>
    command(`clock(+${minutes}m)`, async (_model, real) => {
      real.app.clock.advanceMinutes(minutes);
      // Time passing includes the hub's periodic pass that programs each locker's next booking.
      await syncAllPins(real.app.cloud.context.services.bridgeHub.pins);
    }),
  );

async function notify(real: Real, fields: Record<string, string>): Promise<void> {
  const b = new SandboxTokens(SECRET).sealResult(SHOP, fields as never);
  const response = await fetch(`${real.app.url}${PAYMENT_NOTIFICATION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ a: SHOP, b }).toString(),
  });
  await response.text();
  expect(response.status, 'a payment notification never fails on our side').toBeLessThan(500);
}

function discountOf(record: { percent: number | null; amountCents: number | null }): AppliedDiscount {
  return record.percent !== null
    ? { type: 'percent', value: record.percent }
    : { type: 'euro', value: (record.amountCents ?? 0) / 100 };
}

/** A locker control whose controllers carry out every command (state from our own bookings). */
function executedLockerControl(context: AppBase, hub: LockerControl): LockerControl {
  const fromStore = new StoreLockerControl(context.store, context.clock);
  return {
    fullState: (locationKey) => fromStore.fullState(locationKey),
    bookingsProgrammedOn: (locationKey, lockerId) => hub.bookingsProgrammedOn(locationKey, lockerId),
    command: () => Promise.resolve({ outcome: 'executed' }),
    siteStatus: () => Promise.resolve({ online: true, lastSeenAt: null }),
  };
}

const isOneOf = (status: BookingStatus, list: readonly BookingStatus[]) => list.includes(status);

/**
 * `expect(actual, message).toBe(expected)`, handed to vitest only when it fails. The checks after
 * each step compare every booking again, some 200,000 times a run of this file, and each `expect`
 * costs vitest several microseconds of bookkeeping even when it passes (a tenth of the file's time).
 */
function is<T>(actual: T, expected: T, message: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}

/** A booking's recorded moves (oldest first) and the commands issued to its lockers. */
interface BookingTrail {
  events: BookingEvent[];
  commands: BridgeCommandRecord[];
}

/** What every check after a step reads: the real bookings and what the operators were told. */
interface Observed {
  model: Model;
  real: Real;
  step: string;
  now: Date;
  bookings: BookingRecord[];
  /** Each booking's trail, read once for all the checks. */
  trails: Map<string, BookingTrail>;
  /** The discount codes the bookings name, as stored (null: deleted). */
  discounts: Map<string, DiscountRecord | null>;
  location: LocationRecord;
  /** The bookings the takings count as paid online, and those they count as refunded, ever. */
  takings: { paid: string[]; refunded: string[] };
  hub: BridgeHub;
  alerted(id: string): boolean;
  where(booking: BookingRecord): string;
}

/** What `observe` reads from the store: everything the checks look at but the clock. */
type StoreReads = Pick<Observed, 'bookings' | 'trails' | 'discounts' | 'location' | 'takings'> & {
  errorMessages: string[];
};

/**
 * The last step's reads, and the store state they were made at: the store's count of its own writes
 * (`Store.writeVersion`, every statement that is not a plain select) and how many bookings the model
 * knew. About half the steps write nothing (a refused hold, a replayed notification, a clock move
 * with nothing due), and only this test's cloud writes to its database.
 */
const lastReads = new WeakMap<Real['app']['store'], { version: number; ids: number; reads: StoreReads }>();

/**
 * Reads what the checks need, each thing once. The step and the events it raised are over, so
 * nothing writes meanwhile: the reads go out together (some twenty queries a step, one after
 * another, were half of the test's time on PostgreSQL). After a step that wrote nothing, the store
 * answers as it did after the step before: its reads are taken again as they were then.
 */
async function observe(model: Model, real: Real, step: string): Promise<Observed> {
  const { store, clock } = real.app;
  const hub = real.app.cloud.context.services.bridgeHub.hub;
  const version = store.writeVersion();
  const last = lastReads.get(store);
  let reads: StoreReads;
  if (last && last.version === version && last.ids === model.ids.length) {
    reads = last.reads;
  } else {
    reads = await readStore(model, real);
    // Kept only when nothing was written while the reads went out (a job's timer, say).
    if (store.writeVersion() === version) lastReads.set(store, { version, ids: model.ids.length, reads });
  }
  const { errorMessages, ...observed } = reads;
  return {
    model,
    real,
    step,
    now: clock.now(),
    ...observed,
    hub,
    alerted: (id) => errorMessages.some((message) => message.includes(id)),
    where: (booking) => `after ${step}: ${booking.transactionId} (${booking.status})`,
  };
}

async function readStore(model: Model, real: Real): Promise<StoreReads> {
  const { store } = real.app;
  const hub = real.app.cloud.context.services.bridgeHub.hub;
  const ever = [[LOCATION], new Date('2000-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z')] as const;
  const [found, errorLog, location, paid, refunded] = await Promise.all([
    Promise.all(model.ids.map((id) => store.bookings.get(id))),
    store.errorLog.recent(10_000),
    store.locations.get(LOCATION),
    store.takings.onlineTakingsCreatedBetween(...ever),
    store.takings.refundsMadeBetween(...ever),
  ]);
  const bookings = found.filter((b): b is BookingRecord => b !== null);
  const codes = new Set(bookings.flatMap((b) => (b.discountCode ? [b.discountCode] : [])));
  const [trails, discounts] = await Promise.all([
    Promise.all(
      bookings.map(async ({ transactionId: id }) => {
        const [events, commands] = await Promise.all([store.bookings.events(id), hub.commandsFor(id)]);
        return [id, { events, commands }] as const;
      }),
    ),
    Promise.all([...codes].map(async (code) => [code, await store.discounts.get(code)] as const)),
  ]);
  return {
    bookings,
    trails: new Map(trails),
    discounts: new Map(discounts),
    location: location!,
    takings: {
      paid: paid.map((row) => row.transactionId),
      refunded: refunded.map((row) => row.transactionId),
    },
    errorMessages: errorLog.map((entry) => entry.message),
  };
}

/** Deleted (cleanup): never a booking that holds lockers or money before its end, nor its PIN left. */
async function checkDeletions({ model, step, now, bookings, hub }: Observed): Promise<void> {
  const present = new Set(bookings.map((b) => b.transactionId));
  for (const [id, last] of model.seen) {
    if (present.has(id)) continue;
    const live = isOneOf(last.status, [...ACTIVE_BOOKING_STATUSES, ...REFUND_OWED_STATUSES]);
    is(live && last.endAt > now, false, `after ${step}: ${id} (${last.status}) was deleted before its end`);
    is(isOneOf(last.status, REFUND_OWED_STATUSES), false, `after ${step}: ${id} deleted while money is owed`);
    const commands = await hub.commandsFor(id);
    for (const command of commands) {
      if (command.lockerId === null || command.expiresAt <= now) continue;
      const pin = pinOnLocker(commands, command.lockerId);
      is(pin.sent, false, `after ${step}: deleted ${id} keeps its PIN on locker ${command.lockerId}`);
    }
    model.seen.delete(id);
  }
  for (const booking of bookings) model.seen.set(booking.transactionId, booking);
}

/** Money: a total is the protocol's price for what is booked, and paid means paid exactly that. */
function checkMoney(observed: Observed, booking: BookingRecord): void {
  const { model, trails, discounts, location, where, alerted } = observed;
  const payments = model.paid.get(booking.transactionId) ?? [];
  const price = bookingPriceCents({
    pricing: location.pricing,
    size: booking.size,
    duration: booking.duration,
    quantity: booking.quantity,
  });
  is(price, booking.priceOriginalCents, where(booking));
  const discount = booking.discountCode ? (discounts.get(booking.discountCode) ?? null) : null;
  if (!booking.discountCode || discount) {
    const expected = bookingTotals({
      priceCents: price!,
      discount: discount ? discountOf(discount) : null,
    });
    is(booking.totalCents, expected.totalCents, where(booking));
  }
  if (isOneOf(booking.status, PAID_BOOKING_STATUSES)) {
    const amounts = payments.map((p) => p.amountCents);
    is(amounts.includes(booking.totalCents), true, `${where(booking)}: paid ${amounts.join(', ')}`);
    is(booking.paidAt !== null, true, `${where(booking)}: paid, with no time of payment`);
    if (booking.status !== 'scheduled') {
      is(/^\d{6}$/.test(booking.pin ?? ''), true, `${where(booking)}: PIN ${booking.pin}`);
    }
  }
  // Money the gateway took is honoured, owed back, or kept by an operator's recorded decision
  // (a paid booking cancelled without refund) — never kept silently.
  const lastMove = trails.get(booking.transactionId)!.events.at(-1);
  const keptByOperator =
    booking.status === 'cancelled_by_operator' && booking.paidAt !== null && lastMove?.actor === 'operator';
  if (payments.length > 0 && !keptByOperator) {
    is(isOneOf(booking.status, [...PAID_BOOKING_STATUSES, ...REFUND_OWED_STATUSES]), true, where(booking));
  }
  if (isOneOf(booking.status, REFUND_OWED_STATUSES) || new Set(payments.map((p) => p.reference)).size > 1) {
    is(alerted(booking.transactionId), true, `${where(booking)}: operators told to refund`);
  }
}

/** Expiry, lockers and history agree with the status. */
function checkStatusAgrees({ trails, where }: Observed, booking: BookingRecord): void {
  // Holds lapse; nothing else carries an expiry.
  is(booking.expiresAt !== null, isOneOf(booking.status, HOLD_BOOKING_STATUSES), `${where(booking)}: expiry`);
  // Lockers are held exactly while the status says so.
  const holds = isOneOf(booking.status, ACTIVE_BOOKING_STATUSES);
  for (const locker of booking.lockers) {
    if (!holds) is(locker.active, false, `${where(booking)}: locker ${locker.number} held`);
  }
  if (holds) {
    const held = booking.lockers.filter((l) => l.active).length;
    is(held, booking.quantity, `${where(booking)}: lockers held`);
  }
  // History: the last recorded move is the status.
  const { events } = trails.get(booking.transactionId)!;
  if (booking.status !== 'pending') is(events.length > 0, true, `${where(booking)}: no recorded move`);
  if (events.length > 0) is(events.at(-1)!.to, booking.status, `${where(booking)}: last recorded move`);
}

/** Lockers: never two live bookings on one locker at once. */
function checkNoLockerHeldTwice({ step, bookings }: Observed): void {
  const live = bookings.filter((b) => isOneOf(b.status, ACTIVE_BOOKING_STATUSES));
  const byLocker = new Map<number, BookingRecord[]>();
  for (const booking of live) {
    for (const locker of booking.lockers.filter((l) => l.active)) {
      byLocker.set(locker.number, [...(byLocker.get(locker.number) ?? []), booking]);
    }
  }
  for (const [locker, on] of byLocker) {
    for (const a of on) {
      for (const b of on) {
        if (a === b) continue;
        const overlap = a.startAt < b.endAt && b.startAt < a.endAt;
        is(
          overlap,
          false,
          `after ${step}: locker ${locker} held by ${a.transactionId} and ${b.transactionId}`,
        );
      }
    }
  }
}

/**
 * Takings: every payment taken, each once, on its day (kept, or refunded later); each refund made
 * once, on its own day.
 */
function checkTakings({ takings, step, bookings }: Observed): void {
  const countedIds = [...takings.paid].sort();
  const paidIds = bookings
    .filter(
      (b) =>
        isOneOf(b.status, PAID_BOOKING_STATUSES) ||
        (isOneOf(b.status, ['cancelled_by_operator', 'refund_due', 'refunded']) && b.paidAt !== null),
    )
    .map((b) => b.transactionId)
    .sort();
  expect(countedIds, `after ${step}: takings count every payment taken, once`).toEqual(paidIds);
  expect([...takings.refunded].sort(), `after ${step}: takings subtract every refund made, once`).toEqual(
    bookings
      .filter((b) => b.status === 'refunded' && b.paidAt !== null)
      .map((b) => b.transactionId)
      .sort(),
  );
  for (const status of ONLINE_TAKINGS_STATUSES) expect(PAID_BOOKING_STATUSES).toContain(status);
}

/** Doors: each locker's next live paid booking has its PIN sent (or an alert); no other one does. */
function checkPins({ now, bookings, trails, alerted, where }: Observed): void {
  const next = new Map<number, BookingRecord>();
  for (const booking of bookings) {
    if (!isOneOf(booking.status, ['confirmed', 'confirmed_late']) || booking.endAt <= now) continue;
    for (const locker of booking.lockers.filter((l) => l.active)) {
      const current = next.get(locker.number);
      if (!current || booking.startAt < current.startAt) next.set(locker.number, booking);
    }
  }
  for (const booking of bookings) {
    const { commands } = trails.get(booking.transactionId)!;
    for (const locker of booking.lockers) {
      const pin = pinOnLocker(commands, locker.number);
      if (next.get(locker.number) === booking && locker.active) {
        is(
          pin.sent || (pin.refused && alerted(booking.transactionId)),
          true,
          `${where(booking)}: PIN on locker ${locker.number}`,
        );
      } else if (
        !isOneOf(booking.status, ['confirmed', 'confirmed_late']) &&
        pin.lastBook?.expiresAt &&
        pin.lastBook.expiresAt > now
      ) {
        is(pin.sent, false, `${where(booking)}: PIN still on locker ${locker.number}`);
      }
    }
  }
}

async function checkInvariants(model: Model, real: Real, step: string): Promise<void> {
  const observed = await observe(model, real, step);
  await checkDeletions(observed);
  for (const booking of observed.bookings) {
    checkMoney(observed, booking);
    checkStatusAgrees(observed, booking);
  }
  checkNoLockerHeldTwice(observed);
  checkTakings(observed);
  checkPins(observed);
}

const COMMANDS = [
  operatorArb,
  cleanupArb,
  holdArb,
  holdArb,
  bookAndPayArb,
  bookAndPayArb,
  createPaymentArb,
  createPaymentArb,
  providerArb,
  providerArb,
  replayArb,
  cancelArb,
  expireArb,
  morningArb,
  clockArb,
  clockArb,
];

describe.each(STORE_DIALECTS)('the booking core as a model, on %s', (dialect) => {
  const { runs, steps } = RUNS[dialect];
  let executed = 0;
  const statuses = new Map<string, number>();
  /** Bookings the gateway took money for, over every run: the invariants about paid ones had work. */
  let paidBookings = 0;
  // One database for the runs, migrated once and emptied before each: a run's store, app, clock and
  // caches are still its own; only the schema and its migrations are not made again for each run.
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await (await database.open()).close();
  });
  afterAll(() => database?.dispose());
  const seed = process.env.MODEL_SEED
    ? Number(process.env.MODEL_SEED)
    : Date.now() ^ (Math.random() * 2 ** 31);

  test.prop([fc.commands(COMMANDS, { maxCommands: steps, size: 'max' })], {
    numRuns: runs,
    seed,
    ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
    // A run is a few seconds: report the failing sequence with its seed rather than shrink in CI.
    endOnFailure: process.env.CI === 'true',
  })(
    'keeps money, bookings, takings and doors in agreement whatever happens',
    async (commands) => {
      // The controllers are outside our system: every operator command reaches its locker.
      await emptyTestDatabase(database!);
      const app = await startPaymentTestApp({ database, lockerControl: executedLockerControl });
      try {
        await seedLocation(app.store, {
          location: { key: LOCATION, name: 'Tiny', maxOnline: { standard: 2, large: 1 } },
          standard: 2,
          large: 1,
        });
        const model: Model = {
          ids: [],
          checkouts: [],
          notifications: [],
          paid: new Map(),
          seen: new Map(),
          steps: 0,
        };
        await fc.asyncModelRun(() => ({ model, real: { app, adminToken: null } }), commands);
        executed += model.steps;
        paidBookings += model.paid.size;
        for (const id of model.ids) {
          const status = (await app.store.bookings.get(id))?.status ?? 'missing';
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      } finally {
        await app.close();
      }
    },
    600_000,
  );

  it('walked enough steps, paid bookings among them, for the invariants to mean something', () => {
    console.info(
      `booking model on ${dialect}: seed ${seed}, ${executed} steps, ${paidBookings} bookings paid, bookings ended ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    // fast-check draws each run's length up to `steps`, and some drawn commands do not apply: runs
    // walked 24-43 % of the most in seeds tried (seed 101 on PostgreSQL 482 of 2,000), so a quarter
    // failed a few seeds in a hundred. A sixth still means hundreds of steps.
    expect(executed).toBeGreaterThan((runs * steps) / 6);
    expect(paidBookings).toBeGreaterThan(runs);
  });
});
