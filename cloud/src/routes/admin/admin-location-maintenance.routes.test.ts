import { errorBodySchema, publicLocationSchema } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { TODAY_NOON } from '../../../test/builders';

// One site's maintenance (issue 17, roles and maintenance): an operator pauses a location's
// bookings while the others keep selling; its pages say so and the server refuses its holds.
// Clock: the admin test app's (Friday 27 March 2026, 09:00 in Rome).

describe.each(STORE_DIALECTS)("a site's own maintenance over HTTP (%s)", (dialect) => {
  const app = useAdminTestApp({ dialect });

  const hold = (locationKey: string) =>
    app.call<{ transactionId: string }>('POST', '/api/lockers/inhibit-multi', {
      body: { locationKey, dimensione: 'standard', quantita: 1, ...TODAY_NOON },
    });
  const setMaintenance = async (on: boolean) => {
    const read = await app.call<Record<string, { version: number }>>('GET', '/api/admin/locations', {
      token: app.token,
    });
    return app.call<{ location: { manutenzione: boolean } }>('PATCH', '/api/admin/locations/oca', {
      token: app.token,
      body: { manutenzione: on, version: read.body.oca!.version },
    });
  };

  it('pauses only that site: its holds refused as maintenance, its page told, the others selling', async () => {
    const paused = await setMaintenance(true);
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.location.manutenzione).toBe(true);

    const refused = await hold('oca');
    expect(refused.status).toBe(503);
    expect(errorBodySchema.parse(refused.body).error.code).toBe('booking/maintenance');
    const page = publicLocationSchema.parse((await app.call('GET', '/api/locations/oca')).body);
    expect(page.manutenzione).toBe(true);
    expect((await app.call('GET', '/api/locations/all', { token: app.token })).body).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'oca', manutenzione: true })]),
    );

    const elsewhere = await hold('vicolo');
    expect(elsewhere.status).toBe(200);
    expect((await app.call('GET', '/api/locations/vicolo')).body).not.toHaveProperty('manutenzione');

    const log = await app.store.errorLog.recent(10);
    expect(log.some((entry) => entry.type === 'admin/location_updated' && entry.locationKey === 'oca')).toBe(
      true,
    );
  });

  it('sells again once the operator ends the maintenance', async () => {
    expect((await setMaintenance(false)).body.location.manutenzione).toBe(false);
    expect((await hold('oca')).status).toBe(200);
    expect((await app.call('GET', '/api/locations/oca')).body).not.toHaveProperty('manutenzione');
  });
});
