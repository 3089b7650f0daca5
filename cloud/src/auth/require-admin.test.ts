import { describe, expect, it } from 'vitest';
import { adminRequestMatcher } from './require-admin';

describe('adminRequestMatcher', () => {
  const needsAdmin = adminRequestMatcher();

  it('asks for an administrator on admin routes and on unknown paths under the admin prefixes', () => {
    expect(needsAdmin('GET', '/api/admin/bookings/recent')).toBe(true);
    expect(needsAdmin('POST', '/api/system/admin/run-morning-scheduler')).toBe(true);
    expect(needsAdmin('GET', '/api/admin/not-built-yet')).toBe(true);
  });

  it('lets public calls through, under the admin prefix too', () => {
    expect(needsAdmin('POST', '/api/admin/login')).toBe(false);
    expect(needsAdmin('GET', '/api/admin/frontend-overrides')).toBe(false);
    expect(needsAdmin('GET', '/api/bookings/availability')).toBe(false);
    expect(needsAdmin('GET', '/vicolo')).toBe(false);
  });

  it('reads HEAD as GET and gives the same answer every time it is asked', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(needsAdmin('HEAD', '/api/admin/bookings/recent')).toBe(true);
      expect(needsAdmin('GET', '/api/admin/frontend-overrides')).toBe(false);
    }
  });

  it('keeps answering right past the number of paths it remembers', () => {
    for (let i = 0; i < 6_000; i += 1) expect(needsAdmin('GET', `/api/bookings/BOOKING-${i}`)).toBe(false);
    expect(needsAdmin('GET', '/api/admin/bookings/recent')).toBe(true);
  });
});
