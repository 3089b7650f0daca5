import { describe, expect, it } from 'vitest';
import { startAdminTestApp } from '../../../test/admin-test-app';
import { TEST_NOW, useTestApp } from '../../../test/test-app';

// Issue 14, administrator sessions through HTTP: 30 minutes without use end a session, and 12 hours
// after login end it whatever the use.

describe('administrator sessions over HTTP', () => {
  // The production timeouts (the test app's own default leaves the idle timeout long).
  const { test: app } = useTestApp(() =>
    startAdminTestApp({ idleTimeoutMs: undefined, sessionTtlMs: undefined }),
  );

  const status = async (token: string) => (await app.call('GET', '/api/admin/users', { token })).status;

  it('ends a session after 30 minutes without use, and each use moves that on', async () => {
    app.clock.set(TEST_NOW);
    const token = await app.login();
    const login = await app.call<{ expiresAt: string }>('POST', '/api/admin/login', {
      body: { email: 'ops@deposito.test', password: 'correct horse battery' },
    });
    expect(new Date(login.body.expiresAt).getTime() - app.clock.now().getTime()).toBe(30 * 60_000);
    app.clock.advanceMinutes(29);
    expect(await status(token)).toBe(200);
    app.clock.advanceMinutes(29);
    expect(await status(token)).toBe(200);
    app.clock.advanceMinutes(31);
    expect(await status(token)).toBe(401);
  });

  it('ends a session 12 hours after login however busy it is', async () => {
    app.clock.set(TEST_NOW);
    const token = await app.login();
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      app.clock.advanceMinutes(20);
      expect(await status(token), `after ${minutes + 20} minutes`).toBe(200);
    }
    app.clock.advanceMinutes(20);
    expect(await status(token)).toBe(401);
  });

  describe('the browser session cookie', () => {
    async function loginWithCookie(headers: Record<string, string> = {}) {
      const response = await fetch(`${app.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email: 'ops@deposito.test', password: 'correct horse battery' }),
      });
      expect(response.status).toBe(200);
      const setCookie = response.headers.get('set-cookie') ?? '';
      const cookie = setCookie.split(';')[0];
      return { setCookie, cookie, token: ((await response.json()) as { token: string }).token };
    }
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${app.url}${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    it('is HttpOnly, SameSite=Strict, Path=/, and Secure behind HTTPS', async () => {
      app.clock.set(TEST_NOW);
      const { setCookie, cookie, token } = await loginWithCookie();
      expect(cookie).toBe(`deposito_admin=${token}`);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; SameSite=Strict/);
      expect(setCookie).toMatch(/Path=\//);
      expect(setCookie).not.toMatch(/Secure/);
      const behindHttps = await startAdminTestApp({ env: { TRUST_PROXY: 'loopback' } });
      try {
        const response = await fetch(`${behindHttps.url}/api/admin/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
          body: JSON.stringify({ email: 'ops@deposito.test', password: 'correct horse battery' }),
        });
        expect(response.headers.get('set-cookie')).toMatch(/; Secure/);
      } finally {
        await behindHttps.close();
      }
    });

    it('authenticates reads, and changes only with the pages’ header from this origin (CSRF)', async () => {
      app.clock.set(TEST_NOW);
      const { cookie, token } = await loginWithCookie();
      expect((await send('GET', '/api/admin/users', { cookie })).status).toBe(200);
      const user = { email: 'csrf.check@deposito.test', password: 'violet lantern harbour' };
      const forged = await send('POST', '/api/admin/users', { cookie }, user);
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('auth/csrf_rejected');
      const otherOrigin = await send(
        'POST',
        '/api/admin/users',
        { cookie, 'x-deposito-admin': '1', origin: 'https://evil.example' },
        user,
      );
      expect(otherOrigin.status).toBe(403);
      expect((await app.store.adminUsers.findByEmail(user.email)) ?? null).toBeNull();
      const own = await send(
        'POST',
        '/api/admin/users',
        { cookie, 'x-deposito-admin': '1', origin: app.url },
        user,
      );
      expect(own.status).toBe(201);
      // API clients with a Bearer token need no header.
      expect((await send('GET', '/api/admin/users', { authorization: `Bearer ${token}` })).status).toBe(200);
      // Logout with the cookie ends the session and clears the cookie.
      const logout = await send('POST', '/api/admin/logout', { cookie, 'x-deposito-admin': '1' }, {});
      expect(logout.status).toBe(200);
      expect(logout.headers.get('set-cookie')).toMatch(/^deposito_admin=;.*Max-Age=0/);
      expect((await send('GET', '/api/admin/users', { cookie })).status).toBe(401);
    });
  });
});
