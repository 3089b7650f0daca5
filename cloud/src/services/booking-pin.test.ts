import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { DomainEvents } from '../domain-events';
import { seedLocation } from '../../test/builders';
import { silentLogger, TEST_NOW } from '../../test/test-app';
import { useTestStore } from '../../test/test-store';
import { AvailabilityService } from './availability.service';
import { BookingService, type RandomSource } from './booking.service';
import { DiscountService } from './discount.service';
import { LocationService } from './location.service';
import { SettingsService } from './settings.service';

/**
 * Bytes whose digits (byte % 10) spell the same PINs on every call, 482915 then 730516, while the
 * bytes themselves (and so the transaction ids drawn from them) differ from call to call.
 */
function repeatingPins(): RandomSource {
  const digits = [4, 8, 2, 9, 1, 5, 7, 3, 0, 5, 1, 6, 8, 2, 4, 9];
  let call = 0;
  return {
    bytes: (size) => {
      call += 1;
      return Uint8Array.from({ length: size }, (_, i) => digits[i % digits.length]! + 10 * (call % 25));
    },
  };
}

describe('hold PINs', () => {
  const { store } = useTestStore('sqlite');
  let bookings: BookingService;

  beforeAll(async () => {
    await seedLocation(store, { standard: 4, large: 2 });
    const clock = new ManualClock(TEST_NOW);
    const locations = new LocationService(store, clock);
    bookings = new BookingService({
      store,
      clock,
      events: new DomainEvents(silentLogger()),
      settings: new SettingsService(store, clock),
      locations,
      availability: new AvailabilityService(store, clock, locations),
      discounts: new DiscountService(store, clock),
      random: repeatingPins(),
    });
  });

  const hold = (hour: number) =>
    bookings.hold({
      locationKey: 'testloc',
      size: 'standard',
      quantity: 1,
      window: {
        startAt: new Date(Date.UTC(2026, 3, 2, hour)),
        endAt: new Date(Date.UTC(2026, 3, 2, hour + 3)),
      },
    });

  it('never gives two holds at a location the same PIN, even when every candidate is taken', async () => {
    const first = await hold(8);
    expect(first.pin).toBe('482915');
    // Every candidate offered with the reservation is 482915: after those rounds, a PIN outside
    // every active one.
    const second = await hold(12);
    expect(second.pin).toBe('730516');
    expect(second.transactionId).not.toBe(first.transactionId);
    expect((await store.bookings.get(second.transactionId))?.pin).toBe('730516');
  });
});
