import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/test-app';
import { startAdminTestApp, TEST_ADMIN, TEST_SCRYPT_COST } from '../../../test/admin-test-app';
import { DEFAULT_SCRYPT_COST, hashPassword } from '../../auth/password';

// Issue 14, administrator passwords through HTTP: OWASP's scrypt parameters with the old hashes
// redone at login, and the most common passwords refused.

describe('administrator passwords over HTTP', () => {
  // The production cost: the rehash below is the real one.
  const { test: app } = useTestApp(() => startAdminTestApp({ scryptCost: DEFAULT_SCRYPT_COST }));

  it('hashes at N=2^17, r=8, p=1 and redoes an older hash at the next successful login', async () => {
    expect(DEFAULT_SCRYPT_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    const before = (await app.store.adminUsers.findByEmail(TEST_ADMIN.email))!.passwordHash;
    expect(before.startsWith(`scrypt$${TEST_SCRYPT_COST.N}$`)).toBe(true);
    // A wrong password changes nothing.
    expect(
      (await app.call('POST', '/api/admin/login', { body: { ...TEST_ADMIN, password: 'not it at all' } }))
        .status,
    ).toBe(401);
    expect((await app.store.adminUsers.findByEmail(TEST_ADMIN.email))!.passwordHash).toBe(before);
    const token = await app.login();
    const after = (await app.store.adminUsers.findByEmail(TEST_ADMIN.email))!.passwordHash;
    expect(after.startsWith('scrypt$131072$8$1$')).toBe(true);
    // The same password still logs in, and the session of that login still works.
    expect((await app.call('GET', '/api/admin/users', { token })).status).toBe(200);
    await app.login();
  });

  it('refuses the most common passwords, also dressed up, in Italian', async () => {
    const token = await app.login();
    for (const password of [
      'qwertyuiop',
      'Password2024!',
      'juventus1234',
      'qwertyqwerty',
      'amministratore',
    ]) {
      const answer = await app.call<{ error: { code: string; message: string } }>(
        'POST',
        '/api/admin/users',
        {
          token,
          body: { email: 'new.admin@deposito.test', password },
        },
      );
      expect(answer.status, password).toBe(400);
      expect(answer.body.error.code).toBe('user/password_too_common');
      expect(answer.body.error.message).toMatch(/Password troppo comune/);
    }
    const created = await app.call<{ id: number }>('POST', '/api/admin/users', {
      token,
      body: { email: 'new.admin@deposito.test', password: 'violet lantern harbour' },
    });
    expect(created.status).toBe(201);
    const reset = await app.call<{ error: { code: string } }>(
      'POST',
      `/api/admin/users/${created.body.id}/password`,
      {
        token,
        body: { password: '1234567890', currentPassword: TEST_ADMIN.password },
      },
    );
    expect(reset.status).toBe(400);
    expect(reset.body.error.code).toBe('user/password_too_common');
  });
});

// Hashing at the production cost needs more memory than Node's scrypt allows by default (32 MiB).
it('hashes with the production cost without exceeding scrypt maxmem', async () => {
  await expect(hashPassword('violet lantern harbour')).resolves.toMatch(/^scrypt\$131072\$8\$1\$/);
});
