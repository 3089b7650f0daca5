import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Administrator passwords: scrypt with a per-user random salt. The stored text carries its own
// cost parameters, so they can be raised later without invalidating existing hashes.

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/**
 * OWASP's current scrypt parameters (N=2^17, r=8, p=1): 128 MiB and a few hundred ms per hash on a
 * server core, slow for guessing, fine for a login. Hashes made with less are redone at the next
 * successful login (`needsRehash`).
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 131_072, r: 8, p: 1 };

const KEY_LENGTH = 64;
const SALT_BYTES = 16;
const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node refuses above 32 MiB unless maxmem allows it.
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url). */
export async function hashPassword(
  password: string,
  cost: ScryptCost = DEFAULT_SCRYPT_COST,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return [PREFIX, cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parseHash(stored: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return null;
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length === 0 || key.length !== KEY_LENGTH) return null;
  return { cost: { N, r, p }, salt, key };
}

/** True when a stored hash was made with less work than `cost` asks (or cannot be read). */
export function needsRehash(stored: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  return parsed.cost.N < cost.N || parsed.cost.r < cost.r || parsed.cost.p < cost.p;
}

/** True when `password` matches the stored hash; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.cost);
  return timingSafeEqual(candidate, parsed.key);
}

/**
 * A hash of a random password, checked when the e-mail is unknown so that a login for a missing
 * account takes as long as one with a wrong password (no account discovery by timing).
 */
export function decoyHash(cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  return hashPassword(randomBytes(24).toString('base64url'), cost);
}
