import { pino } from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, STORE_DIALECTS, useTestStore } from '../../test/test-store';
import { ManualClock } from '../clock';
import { AppError } from '../errors';
import { AdminAuthService, DEMO_ADMIN_EMAIL } from './auth.service';

const cost = { N: 1024, r: 8, p: 1 };

// The auth service over the real store, on both databases (the admin tables' migration included).
describe.each(STORE_DIALECTS)('AdminAuthService on %s', (dialect) => {
  const { store } = useTestStore(dialect);
  const clock = new ManualClock('2026-03-27T08:00:00Z');
  const waits: number[] = [];
  let auth: AdminAuthService;

  beforeAll(async () => {
    auth = new AdminAuthService(store, clock, pino({ level: 'silent' }), {
      scryptCost: cost,
      sessionTtlMs: 12 * 60 * 60_000,
      wait: async (ms) => void waits.push(ms),
    });
  });

  it('creates no administrator without configuration outside demo mode', async () => {
    expect(await auth.ensureFirstAdmin({ demo: false })).toEqual({ created: false });
    expect(await store.adminUsers.count()).toBe(0);
  });

  it('creates the first administrator from the environment, once', async () => {
    expect(
      await auth.ensureFirstAdmin({ email: 'Boss@Deposito.test', password: 'a secret password', demo: true }),
    ).toEqual({
      created: true,
      email: 'boss@deposito.test',
    });
    expect(
      await auth.ensureFirstAdmin({ email: 'other@deposito.test', password: 'another password', demo: true }),
    ).toEqual({
      created: false,
    });
    expect((await store.adminUsers.list()).map((u) => u.email)).toEqual(['boss@deposito.test']);
  });

  it('issues a token for 30 idle minutes within 12 hours, recognises it until it expires, and ends it at logout', async () => {
    const { token, expiresAt } = await auth.login('boss@deposito.test', 'a secret password', '10.0.0.1');
    expect(expiresAt.toISOString()).toBe('2026-03-27T08:30:00.000Z');
    expect(await auth.authenticate(token)).toMatchObject({ email: 'boss@deposito.test' });
    expect(await auth.authenticate(`${token}x`)).toBeNull();
    expect(await auth.authenticate(null)).toBeNull();
    expect((await store.adminUsers.findByEmail('boss@deposito.test'))?.lastLoginAt).toEqual(clock.now());
    clock.advanceMinutes(12 * 60);
    expect(await auth.authenticate(token)).toBeNull();
    clock.set('2026-03-27T08:00:00Z');
    const second = await auth.login('boss@deposito.test', 'a secret password', '10.0.0.1');
    await auth.logout(second.token);
    expect(await auth.authenticate(second.token)).toBeNull();
  });

  it('checks a session for a long answer without counting it as a use', async () => {
    clock.set('2026-03-27T08:00:00Z');
    const { token } = await auth.login('boss@deposito.test', 'a secret password', '10.0.0.1');
    clock.advanceMinutes(20);
    // Still valid, and the idle expiry stays 08:30: an open live stream alone keeps no session alive.
    expect(await auth.stillAuthenticated(token)).toMatchObject({
      email: 'boss@deposito.test',
      expiresAt: new Date('2026-03-27T08:30:00Z'),
    });
    clock.advanceMinutes(11);
    expect(await auth.stillAuthenticated(token)).toBeNull();
    expect(await auth.authenticate(token)).toBeNull();
    clock.set('2026-03-27T08:00:00Z');
    const other = await auth.login('boss@deposito.test', 'a secret password', '10.0.0.1');
    await auth.logout(other.token);
    expect(await auth.stillAuthenticated(other.token)).toBeNull();
  });

  it('slows repeated failures and then refuses even the right password', async () => {
    const attempt = () => auth.login('boss@deposito.test', 'wrong password', '10.0.0.2');
    const codes: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      codes.push(
        await attempt().then(
          () => 'ok',
          (error: AppError) => error.code,
        ),
      );
    }
    expect(codes).toEqual([...Array(6).fill('auth/invalid_credentials'), 'auth/too_many_attempts']);
    expect(waits).toEqual([500, 1000, 1500]);
    await expect(auth.login('boss@deposito.test', 'a secret password', '10.0.0.2')).rejects.toMatchObject({
      code: 'auth/too_many_attempts',
      details: { retryAfterSeconds: 900 },
    });
    // The right password from another address still works.
    await expect(auth.login('boss@deposito.test', 'a secret password', '10.0.0.3')).resolves.toHaveProperty(
      'token',
    );
  });

  it('keeps at least one administrator, and a password change ends that user’s sessions', async () => {
    const boss = (await store.adminUsers.findByEmail('boss@deposito.test'))!;
    expect(await store.adminUsers.remove(boss.id)).toBe('last_admin');
    const helper = (await store.adminUsers.create(
      { email: 'helper@deposito.test', passwordHash: await auth.hashPassword('helper password') },
      clock.now(),
    ))!;
    expect(
      await store.adminUsers.create({ email: 'HELPER@deposito.test', passwordHash: 'x' }, clock.now()),
    ).toBeNull();
    const { token } = await auth.login('helper@deposito.test', 'helper password', '10.0.0.4');
    await store.adminUsers.setPassword(
      helper.id,
      await auth.hashPassword('new helper password'),
      clock.now(),
    );
    expect(await auth.authenticate(token)).toBeNull();
    expect(await store.adminUsers.remove(helper.id)).toBe('removed');
    expect(await store.adminUsers.remove(helper.id)).toBe('not_found');
    expect(await store.adminUsers.count()).toBe(1);
  });
});

describe('demo administrator', () => {
  it('is generated with a random password when nothing is configured', async () => {
    const database = await createTestDatabase('sqlite');
    const store = await database.open();
    try {
      const auth = new AdminAuthService(
        store,
        new ManualClock('2026-03-27T08:00:00Z'),
        pino({ level: 'silent' }),
        {
          scryptCost: cost,
        },
      );
      const outcome = await auth.ensureFirstAdmin({ demo: true });
      expect(outcome).toMatchObject({ created: true, email: DEMO_ADMIN_EMAIL });
      const password = (outcome as { generatedPassword: string }).generatedPassword;
      expect(password.length).toBeGreaterThanOrEqual(16);
      await expect(auth.login(DEMO_ADMIN_EMAIL, password, '127.0.0.1')).resolves.toHaveProperty('token');
    } finally {
      await store.close();
      await database.dispose();
    }
  });
});
