import { createHash, randomBytes } from 'node:crypto';

// Admin session tokens are opaque random strings; only their SHA-256 is stored, so reading the
// sessions table does not let anyone act as an administrator.

const TOKEN_BYTES = 32;

export function newSessionToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,200})\s*$/i.exec(header);
  return match ? match[1] : null;
}
