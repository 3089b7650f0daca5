import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// AES-256-GCM: the token is both secret (the visitor cannot read the amount or result) and
// authenticated (a changed byte, or a token minted for another purpose, fails to open).
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** Why a token could not be opened; never says which byte was wrong. */
export class SealedTokenError extends Error {
  override readonly name = 'SealedTokenError';
}

/**
 * Seals small JSON payloads with a key derived from a secret. `purpose` is bound into the
 * ciphertext as additional authenticated data, so a token sealed for one purpose (e.g. a checkout)
 * can never be opened as another (e.g. a payment result).
 */
export class TokenSealer {
  readonly #key: Buffer;

  constructor(secret: string, keyLabel: string) {
    if (secret.length < 16) throw new RangeError('The sealing secret must be at least 16 characters long');
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'deposito', keyLabel, KEY_BYTES));
  }

  seal(payload: unknown, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Returns the parsed JSON payload, or throws {@link SealedTokenError}. Validate the result with a schema. */
  open(token: string, purpose: string): unknown {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new SealedTokenError('Token is not base64url');
    const raw = Buffer.from(token, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) throw new SealedTokenError('Token is too short');
    const iv = raw.subarray(0, IV_BYTES);
    const tag = raw.subarray(raw.length - TAG_BYTES);
    const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(purpose, 'utf8'));
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as unknown;
    } catch {
      throw new SealedTokenError('Token failed authentication');
    }
  }
}
