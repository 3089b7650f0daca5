import { apiRoutes, type ApiRoute } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { hashSessionToken } from '../../auth/session-token';
import { startAdminTestApp, TEST_ADMIN } from '../../../test/admin-test-app';

/** A concrete path for a catalogue route: every `:param` filled with a plausible value. */
function concretePath(route: ApiRoute): string {
  const samples: Record<string, string> = { id: '1', code: 'WELCOME10', key: 'vicolo', location: 'vicolo' };
  return route.path.replace(/:(\w+)/g, (_, name: string) => samples[name] ?? 'x1');
}

const adminCatalogue = apiRoutes.filter((route) => route.auth === 'admin');

describe('admin authentication over HTTP', () => {
  const { test: app } = useTestApp(() => startAdminTestApp({ sessionTtlMs: 60 * 60_000 }));

  it('covers every admin route of the catalogue, whoever implements it', () => {
    expect(adminCatalogue.length).toBeGreaterThan(30);
    expect(adminCatalogue.map((r) => r.path)).toContain('/api/lockers/open');
    expect(adminCatalogue.map((r) => r.path)).toContain('/api/admin/takings');
  });

  it('refuses every admin route without a token, with a wrong one and with an expired one', async () => {
    const expiredToken = await app.login();
    app.clock.advanceMinutes(61);
    const wrongToken = 'x'.repeat(43);
    const failures: string[] = [];
    for (const route of adminCatalogue) {
      const path = concretePath(route);
      for (const [label, token] of [
        ['none', undefined],
        ['wrong', wrongToken],
        ['expired', expiredToken],
        ['malformed', 'not a token!'],
      ] as const) {
        const answer = await app.call<{ error?: { code: string } }>(route.method, path, {
          token,
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        if (answer.status !== 401 || answer.body?.error?.code !== 'auth/unauthorized') {
          failures.push(`${route.method} ${path} (${label} token): ${answer.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    app.clock.set('2026-03-27T08:00:00.000Z');
  });

  it('keeps public routes public, including the two under /api/admin', async () => {
    const overrides = await app.call('GET', '/api/admin/frontend-overrides?location=vicolo');
    expect(overrides.status).toBe(200);
    const location = await app.call('GET', '/api/locations/vicolo');
    expect(location.status).toBe(200);
  });

  it('answers 401, not 404, for unknown paths under the admin prefixes', async () => {
    expect((await app.call('GET', '/api/admin/nothing-here')).status).toBe(401);
    expect((await app.call('POST', '/api/system/admin/whatever')).status).toBe(401);
  });

  it('logs in with the right password and the token opens admin calls until it expires', async () => {
    const answer = await app.call<{ token: string; expiresAt: string }>('POST', '/api/admin/login', {
      body: { email: TEST_ADMIN.email.toUpperCase(), password: TEST_ADMIN.password },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(answer.body.expiresAt).getTime()).toBe(app.clock.now().getTime() + 60 * 60_000);
    const settings = await app.call('GET', '/api/admin/settings/system', { token: answer.body.token });
    expect(settings.status).toBe(200);
    app.clock.advanceMinutes(59);
    expect((await app.call('GET', '/api/admin/settings/system', { token: answer.body.token })).status).toBe(
      200,
    );
    app.clock.advanceMinutes(2);
    expect((await app.call('GET', '/api/admin/settings/system', { token: answer.body.token })).status).toBe(
      401,
    );
    app.clock.set('2026-03-27T08:00:00.000Z');
  });

  it('stores only a hash of the token', async () => {
    const token = await app.login();
    const now = app.clock.now();
    expect(await app.store.adminUsers.findSession(token, now)).toBeNull();
    expect(await app.store.adminUsers.findSession(hashSessionToken(token), now)).toMatchObject({
      email: TEST_ADMIN.email,
    });
  });

  it('refuses a wrong password and an unknown e-mail alike', async () => {
    const wrong = await app.call<{ error: { code: string } }>('POST', '/api/admin/login', {
      body: { email: TEST_ADMIN.email, password: 'not the password' },
    });
    const unknown = await app.call<{ error: { code: string } }>('POST', '/api/admin/login', {
      body: { email: 'nobody@deposito.test', password: 'not the password' },
    });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('auth/invalid_credentials');
  });

  it('rejects a malformed login body with 400', async () => {
    const answer = await app.call('POST', '/api/admin/login', {
      body: { email: 'not-an-email', password: '' },
    });
    expect(answer.status).toBe(400);
  });

  it('ends the token on the server at logout', async () => {
    const token = await app.login();
    expect((await app.call('POST', '/api/admin/logout', { token })).status).toBe(200);
    expect((await app.call('GET', '/api/admin/settings/system', { token })).status).toBe(401);
    expect((await app.call('POST', '/api/admin/logout', { token })).status).toBe(401);
  });

  it('slows, then refuses for a while (429) repeated failures for one e-mail, even with the right password', async () => {
    const email = 'lockout@deposito.test';
    const token = await app.login();
    await app.call('POST', '/api/admin/users', {
      token,
      body: { email, password: 'a long enough password' },
    });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (await app.call('POST', '/api/admin/login', { body: { email, password: 'wrong password' } })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    const refused = await app.call<{ error: { code: string } }>('POST', '/api/admin/login', {
      body: { email, password: 'a long enough password' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('auth/too_many_attempts');
    // The pair waits out its 15 minutes (counted on the limiter's wall clock, not waited here).
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    // Another account from the same address is not affected.
    expect((await app.call('POST', '/api/admin/login', { body: TEST_ADMIN })).status).toBe(200);
  });

  describe('Utenti', () => {
    it('lists, adds, resets a password and removes administrators, never the last one', async () => {
      const token = await app.login();
      const created = await app.call<{ id: number; email: string }>('POST', '/api/admin/users', {
        token,
        body: { email: 'New.Admin@Deposito.test', password: 'first password 1' },
      });
      expect(created.status).toBe(201);
      expect(created.body.email).toBe('new.admin@deposito.test');
      const duplicate = await app.call<{ error: { code: string } }>('POST', '/api/admin/users', {
        token,
        body: { email: 'new.admin@deposito.test', password: 'first password 1' },
      });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error.code).toBe('user/already_exists');
      const short = await app.call('POST', '/api/admin/users', {
        token,
        body: { email: 'x@deposito.test', password: 'short' },
      });
      expect(short.status).toBe(400);

      const theirToken = await app.login('new.admin@deposito.test', 'first password 1');
      // Another administrator's password needs the acting one's, checked again.
      for (const currentPassword of [undefined, 'not my password']) {
        const refused = await app.call<{ error: { code: string; message: string } }>(
          'POST',
          `/api/admin/users/${created.body.id}/password`,
          { token, body: { password: 'second password 2', currentPassword } },
        );
        expect(refused.status).toBe(403);
        expect(refused.body.error.code).toBe('user/current_password_invalid');
        expect(refused.body.error.message).toMatch(/password attuale/);
      }
      expect(await app.login('new.admin@deposito.test', 'first password 1')).toEqual(expect.any(String));
      const reset = await app.call('POST', `/api/admin/users/${created.body.id}/password`, {
        token,
        body: { password: 'second password 2', currentPassword: TEST_ADMIN.password },
      });
      expect(reset.status).toBe(200);
      // A reset ends that administrator's sessions; the new password works.
      expect((await app.call('GET', '/api/admin/users', { token: theirToken })).status).toBe(401);
      const newToken = await app.login('new.admin@deposito.test', 'second password 2');

      const list = await app.call<Array<{ email: string; lastLoginAt: string | null }>>(
        'GET',
        '/api/admin/users',
        { token: newToken },
      );
      expect(list.body.map((u) => u.email)).toContain('new.admin@deposito.test');
      expect(JSON.stringify(list.body)).not.toContain('scrypt');

      expect((await app.call('DELETE', `/api/admin/users/${created.body.id}`, { token })).status).toBe(200);
      expect((await app.call('GET', '/api/admin/users', { token: newToken })).status).toBe(401);
      expect((await app.call('DELETE', `/api/admin/users/${created.body.id}`, { token })).status).toBe(404);

      const log = await app.call<Array<{ type: string; message: string }>>('GET', '/api/admin/logs/recent', {
        token,
      });
      const types = log.body.map((e) => e.type);
      expect(types).toEqual(
        expect.arrayContaining(['admin/user_created', 'admin/user_password_changed', 'admin/user_removed']),
      );
      expect(log.body.find((e) => e.type === 'admin/user_removed')?.message).toContain(TEST_ADMIN.email);
    });

    it('refuses to remove the last administrator', async () => {
      const token = await app.login();
      const users = await app.call<Array<{ id: number; email: string }>>('GET', '/api/admin/users', {
        token,
      });
      const others = users.body.filter((u) => u.email !== TEST_ADMIN.email);
      for (const user of others) await app.call('DELETE', `/api/admin/users/${user.id}`, { token });
      const me = users.body.find((u) => u.email === TEST_ADMIN.email)!;
      const answer = await app.call<{ error: { code: string } }>('DELETE', `/api/admin/users/${me.id}`, {
        token,
      });
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('user/last_admin');
      expect(await app.store.adminUsers.count()).toBe(1);
    });
  });
});
