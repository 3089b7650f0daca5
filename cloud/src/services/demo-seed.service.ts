import { eurosToCents, localDateTime, SEED_DISCOUNTS, SEED_LOCATIONS } from '@deposito/protocol';
import { DateTime } from 'luxon';
import type { AppContext } from '../app-context';
import type { NewLocation } from '../store/location.repository';
import { toLocationRecord } from './location-admin.service';

/**
 * The spec's locations as the store keeps them (prices in cents). `sitePort` moves the controllers
 * to consecutive ports from it, in seed order (DEMO_SITE_PORT); by default each keeps its own.
 */
export function seedLocationRecords(sitePort: number | null = null): Array<{
  location: NewLocation;
  lockers: { standard: number[]; large: number[] };
}> {
  return SEED_LOCATIONS.map((seed, index) => {
    const location = toLocationRecord(seed);
    if (sitePort !== null) location.controller.port = sitePort + index;
    return {
      location,
      lockers: { standard: [...seed.lockerStructure.standard], large: [...seed.lockerStructure.large] },
    };
  });
}

/** Saves the spec's locations with their lockers and the demo discount codes. */
export async function seedLocationsAndDiscounts(
  context: Pick<AppContext, 'store' | 'clock'>,
  sitePort: number | null = null,
): Promise<void> {
  const { store, clock } = context;
  const now = clock.now();
  for (const { location, lockers } of seedLocationRecords(sitePort)) {
    await store.locations.save(location, now);
    await store.locations.addLockers(location.key, [
      ...lockers.standard.map((number) => ({ number, size: 'standard' as const })),
      ...lockers.large.map((number) => ({ number, size: 'large' as const })),
    ]);
  }
  for (const seed of SEED_DISCOUNTS) {
    const discount = seed as (typeof SEED_DISCOUNTS)[number] & {
      discountEuro?: number;
      discountPercent?: number;
      minDays?: number;
    };
    await store.discounts.create(
      {
        code: discount.code,
        description: discount.description,
        percent: discount.discountPercent ?? null,
        amountCents: discount.discountEuro === undefined ? null : eurosToCents(discount.discountEuro),
        validFrom: discount.validFrom,
        validTo: discount.validTo,
        usableOnce: discount.usableOnce,
        minDays: discount.minDays ?? null,
      },
      now,
    );
  }
}

/**
 * `DEMO=1` on an empty store: the spec's locations, lockers, prices and discount codes, and a few
 * bookings tomorrow (paid and scheduled, or awaiting payment) so every screen has something to show.
 */
/** What the demo's lockers measure inside (an operator sets their own in Parametri di sistema). */
export const DEMO_LOCKER_DIMENSIONS = { standard: '35 × 45 × 60 cm', large: '45 × 60 × 90 cm' } as const;

export async function seedDemoData(context: AppContext, sitePort: number | null = null): Promise<boolean> {
  if ((await context.store.locations.count()) > 0) return false;
  await seedLocationsAndDiscounts(context, sitePort);
  await context.services.settings.update({
    LOCKER_DIMENSIONS_STANDARD: DEMO_LOCKER_DIMENSIONS.standard,
    LOCKER_DIMENSIONS_LARGE: DEMO_LOCKER_DIMENSIONS.large,
  });
  const { bookings } = context.services;
  const demo = [
    { locationKey: 'oca', size: 'large', quantity: 1, hour: '10:00', hours: 3, paid: true },
    { locationKey: 'vicolo', size: 'standard', quantity: 2, hour: '11:00', hours: 4, paid: true },
    { locationKey: 'campo', size: 'standard', quantity: 1, hour: '09:00', hours: 3, paid: false },
  ] as const;
  for (const item of demo) {
    const zone = (await context.services.locations.require(item.locationKey)).zone;
    const tomorrow = DateTime.fromJSDate(context.clock.now(), { zone })
      .plus({ days: 1 })
      .toFormat('yyyy-MM-dd');
    const start = localDateTime(tomorrow, item.hour, zone);
    const booking = await bookings.hold({
      locationKey: item.locationKey,
      size: item.size,
      quantity: item.quantity,
      window: { startAt: start.toJSDate(), endAt: start.plus({ hours: item.hours }).toJSDate() },
      note: 'lang:it',
    });
    await bookings.saveCustomerDetails(booking.transactionId, {
      customer: {
        firstName: 'Maria',
        lastName: 'Rossi',
        email: 'maria.rossi@example.com',
        phonePrefix: '+39',
        phoneNumber: '3331234567',
      },
      discountCode: null,
    });
    // Paid for tomorrow is `scheduled`, as a real payment leaves it: the morning scheduler gives it
    // its PIN and programs the lockers on the day. (Confirming it now put tomorrow's PIN on the
    // demo controllers, which then refused today's bookings on those lockers.)
    if (item.paid) {
      await bookings.changeStatus(booking.transactionId, {
        from: ['pending'],
        to: 'scheduled',
        actor: 'provider',
        reason: 'paid',
        detail: 'demo data',
        paidAt: context.clock.now(),
        providerReference: 'DEMO',
      });
    }
  }
  return true;
}
