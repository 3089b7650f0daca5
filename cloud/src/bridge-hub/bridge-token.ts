import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store';

// Each location's edge bridge authenticates with a bearer token. Only its SHA-256 is stored: the
// token is 32 random bytes, so a fast hash is enough, and reading the table does not let anyone
// pose as a site. An admin call issues a new token (shown once) and so revokes the previous one.

const TOKEN_BYTES = 32;

export function newBridgeToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashBridgeToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares in constant time, so response timing says nothing about the stored hash. */
export function bridgeTokenMatches(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashBridgeToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The token a demo bridge uses (DEMO=1 only): derived from the location key, so `npm start` and a
 * technician trying the demo can compute it without asking the cloud. Never installed outside demo mode.
 */
export function demoBridgeToken(locationKey: string): string {
  return createHash('sha256').update(`deposito demo bridge token for ${locationKey}`, 'utf8').digest('hex');
}

/** Issues a new random token for the location, revoking the previous one; null if no such location. */
export async function issueBridgeToken(store: Store, locationKey: string, now: Date): Promise<string | null> {
  const token = newBridgeToken();
  return (await setBridgeToken(store, locationKey, token, now)) ? token : null;
}

/** Makes `token` the location's bridge token (scripts, demo); false if no such location. */
export async function setBridgeToken(
  store: Store,
  locationKey: string,
  token: string,
  now: Date,
): Promise<boolean> {
  return store.bridge.setTokenHash(locationKey, hashBridgeToken(token), now);
}

/** Demo mode: every location accepts its demo token. Returns the tokens installed, for the start script's log. */
export async function installDemoBridgeTokens(
  store: Store,
  now: Date,
): Promise<Array<{ locationKey: string; token: string }>> {
  const installed: Array<{ locationKey: string; token: string }> = [];
  for (const location of await store.locations.list()) {
    const token = demoBridgeToken(location.key);
    if (await setBridgeToken(store, location.key, token, now))
      installed.push({ locationKey: location.key, token });
  }
  return installed;
}
