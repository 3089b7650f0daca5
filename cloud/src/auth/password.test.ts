import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password';

const cost = { N: 1024, r: 8, p: 1 };

describe('admin passwords', () => {
  it('hashes with a fresh salt each time and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery', cost);
    const second = await hashPassword('correct horse battery', cost);
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[\w-]+\$[\w-]{86}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('refuses stored text that is not one of our hashes', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$0$8$1$abc$def')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1024$8$1$abc$def')).toBe(false);
  });
});
