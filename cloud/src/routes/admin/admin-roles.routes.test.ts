import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminTestApp, type AdminTestApp } from '../../../test/admin-test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// Roles of the admin area (issue 17), enforced by the server on every route: a site operator acts
// on its sites only and never on accounts or system parameters; a technician only on its sites'
// lockers. Lists are narrowed to the caller's sites. Clock: Friday 27 March 2026, 08:00 UTC.

const OPERATOR = { email: 'vicolo-ops@deposito.test', password: 'correct horse vicolo staple' };
const TECHNICIAN = { email: 'oca-tech@deposito.test', password: 'correct horse oca staple' };

describe.each(STORE_DIALECTS)('admin roles over HTTP (%s)', (dialect) => {
  let app: AdminTestApp;
  let admin: string;
  let operator: string;
  let technician: string;
  const booking: Record<string, string> = {};
  const as = (token: string) => ({
    get: (path: string) => app.call<unknown>('GET', path, { token }),
    post: (path: string, body: unknown = {}) => app.call<unknown>('POST', path, { token, body }),
    patch: (path: string, body: unknown) => app.call<unknown>('PATCH', path, { token, body }),
  });

  beforeAll(async () => {
    app = await startAdminTestApp({ dialect });
    admin = await app.login();
    for (const location of ['vicolo', 'oca']) {
      const made = await as(admin).post('/api/system/admin/create-test-booking', {
        location,
        status: 'confirmed',
        lockerIds: [2],
        startTime: '2026-03-27T09:00:00.000Z',
        endTime: '2026-03-27T12:00:00.000Z',
        nome: 'Giulia',
        cognome: 'Rossi',
        email: 'giulia@example.it',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      booking[location] = (made.body as { transactionId: string }).transactionId;
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates site operators and technicians only with sites that exist', async () => {
    const users = as(admin);
    expect((await users.post('/api/admin/users', { ...OPERATOR, role: 'site_operator' })).status).toBe(400);
    expect(
      (await users.post('/api/admin/users', { ...OPERATOR, role: 'administrator', sites: ['vicolo'] }))
        .status,
    ).toBe(400);
    expect(
      (await users.post('/api/admin/users', { ...OPERATOR, role: 'site_operator', sites: ['nowhere'] }))
        .status,
    ).toBe(404);
    const made = await users.post('/api/admin/users', {
      ...OPERATOR,
      role: 'site_operator',
      sites: ['vicolo'],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ role: 'site_operator', sites: ['vicolo'] });
    expect(
      (await users.post('/api/admin/users', { ...TECHNICIAN, role: 'technician', sites: ['oca'] })).status,
    ).toBe(201);
    operator = await app.login(OPERATOR.email, OPERATOR.password);
    technician = await app.login(TECHNICIAN.email, TECHNICIAN.password);
    expect((await as(operator).get('/api/admin/me')).body).toEqual({
      email: OPERATOR.email,
      role: 'site_operator',
      sites: ['vicolo'],
    });
  });

  it('keeps a site operator to its sites and away from accounts and system parameters', async () => {
    const ops = as(operator);
    const refused = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      expect(status, JSON.stringify(body)).toBe(403);
      expect(body).toMatchObject({ error: { code: 'auth/forbidden' } });
    };
    await refused(ops.get('/api/admin/users'));
    await refused(ops.post('/api/admin/settings/system', { MAINTENANCE_MODE: true }));
    await refused(ops.get('/api/discounts/all'));
    await refused(ops.get('/api/lockers/full-state?location=oca'));
    await refused(ops.patch('/api/admin/locations/oca', { nome: 'Presa' }));
    await refused(ops.get(`/api/admin/bookings/${booking.oca}/history`));
    await refused(ops.get('/api/admin/takings?month=2026-03&location=all'));
    await refused(ops.get('/api/admin/live/lockers?location=oca'));
    await refused(
      ops.post('/api/admin/locations/duplicate-structure', { sourceKey: 'vicolo', targetKey: 'oca' }),
    );
    await refused(
      ops.post('/api/locations/update-prices', [{ key: 'oca', pricing: { standard: {}, large: {} } }]),
    );

    expect((await ops.get('/api/lockers/full-state?location=vicolo')).status).toBe(200);
    expect((await ops.get(`/api/admin/bookings/${booking.vicolo}/history`)).status).toBe(200);
    const rows = (await ops.get('/api/admin/bookings/recent')).body as Array<{ LOCATION_KEY: string }>;
    expect(new Set(rows.map((row) => row.LOCATION_KEY))).toEqual(new Set(['vicolo']));
    const sites = (await ops.get('/api/locations/all')).body as Array<{ key: string }>;
    expect(sites.map((site) => site.key)).toEqual(['vicolo']);
    expect(Object.keys((await ops.get('/api/admin/locations')).body as object)).toEqual(['vicolo']);

    // What every site's settings page does, for its own site.
    const read = (await ops.get('/api/admin/locations')).body as Record<string, { version: number }>;
    const saved = await ops.patch('/api/admin/locations/vicolo', {
      nome: 'Deposito Vicolo',
      version: read.vicolo!.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it('keeps a technician to the lockers of its sites', async () => {
    const tech = as(technician);
    expect((await tech.get('/api/admin/bookings/recent')).status).toBe(403);
    expect((await tech.get(`/api/admin/bookings/${booking.oca}/history`)).status).toBe(403);
    expect((await tech.get('/api/lockers/full-state?location=vicolo')).status).toBe(403);
    expect((await tech.get('/api/admin/alerts')).status).toBe(403);
    expect((await tech.get('/api/lockers/full-state?location=oca')).status).toBe(200);
    expect((await tech.get('/api/lockers/history?location=oca&lockerId=2')).status).toBe(200);
    const inhibit = await tech.post('/api/lockers/inhibit', { location: 'oca', lockerId: 5 });
    expect(inhibit.status, JSON.stringify(inhibit.body)).not.toBe(403);
    expect((await tech.post('/api/lockers/inhibit', { location: 'vicolo', lockerId: 5 })).status).toBe(403);
    const sites = (await tech.get('/api/locations/all')).body as Array<{ key: string }>;
    expect(sites.map((site) => site.key)).toEqual(['oca']);
  });

  it('never removes the last administrator, however many other accounts there are', async () => {
    const users = (await as(admin).get('/api/admin/users')).body as Array<{ id: number; role: string }>;
    const administrators = users.filter((user) => user.role === 'administrator');
    expect(administrators).toHaveLength(1);
    const removed = await app.call<{ error: { code: string } }>(
      'DELETE',
      `/api/admin/users/${administrators[0]!.id}`,
      {
        token: admin,
      },
    );
    expect(removed.status).toBe(409);
  });

  it('lets anyone change its own password, and only an administrator another one', async () => {
    const me = (await as(admin).get('/api/admin/users')).body as Array<{ id: number; email: string }>;
    const opsId = me.find((user) => user.email === OPERATOR.email)!.id;
    const techId = me.find((user) => user.email === TECHNICIAN.email)!.id;
    expect(
      (
        await as(operator).post(`/api/admin/users/${techId}/password`, {
          password: 'another long passphrase',
        })
      ).status,
    ).toBe(403);
    expect(
      (await as(operator).post(`/api/admin/users/${opsId}/password`, { password: 'another long passphrase' }))
        .status,
    ).toBe(200);
  });
});
