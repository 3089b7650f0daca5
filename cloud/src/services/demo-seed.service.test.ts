import { SEED_LOCATIONS } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { seedLocationRecords } from './demo-seed.service';

describe('seedLocationRecords', () => {
  it("keeps each seed location's own controller port by default", () => {
    expect(seedLocationRecords().map((record) => record.location.controller.port)).toEqual(
      SEED_LOCATIONS.map((location) => location.port),
    );
  });

  it('moves the controllers to consecutive ports from DEMO_SITE_PORT, in seed order', () => {
    const records = seedLocationRecords(21_000);
    expect(records.map((record) => [record.location.key, record.location.controller.port])).toEqual(
      SEED_LOCATIONS.map((location, index) => [location.key, 21_000 + index]),
    );
  });
});
