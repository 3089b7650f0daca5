import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Issues a new random token for the location, revoking the previous one; null if no such location. */
export async function issueBridgeToken(store: Store, locationKey: string, now: Date): Promise<string | null> {
  const token = newBridgeToken();
  return (await setBridgeToken(store, locationKey, token, now)) ? token : null;
}

/** Makes `token` the location's bridge token (scripts, tests); false if no such location. */
export async function setBridgeToken(
  store: Store,
  locationKey: string,
  token: string,
  now: Date,
): Promise<boolean> {
  return store.bridge.setTokenHash(locationKey, hashBridgeToken(token), now);
}

/**
 * The token demo bridges used before tokens were random: derived from the location key, so anyone
 * could compute it. Kept only to recognise it: `revokeLegacyDemoBridgeTokens` removes it from the
 * store at start and the hub refuses it whatever the store holds.
 */
export function legacyDemoBridgeToken(locationKey: string): string {
  return createHash('sha256').update(`deposito demo bridge token for ${locationKey}`, 'utf8').digest('hex');
}

/** True for a token anyone can derive from the location key (see `legacyDemoBridgeToken`). */
export function isLegacyDemoBridgeToken(token: string, locationKey: string): boolean {
  const legacy = Buffer.from(legacyDemoBridgeToken(locationKey), 'utf8');
  const given = Buffer.from(token, 'utf8');
  return given.length === legacy.length && timingSafeEqual(given, legacy);
}

/**
 * Removes every location's token that is the old derivable demo token (left by a store once started
 * with DEMO=1 before tokens were random), whatever the mode: answers the locations whose bridge
 * must now be given a real token.
 */
export async function revokeLegacyDemoBridgeTokens(store: Store): Promise<string[]> {
  const revoked: string[] = [];
  for (const location of await store.locations.list()) {
    const legacyHash = hashBridgeToken(legacyDemoBridgeToken(location.key));
    if (await store.bridge.removeTokenHash(location.key, legacyHash)) revoked.push(location.key);
  }
  return revoked;
}

/**
 * Demo mode: a location without a bridge token gets a new random one, returned here in clear
 * (the only time it exists outside the bridge) so the start script can hand it to its demo bridge.
 * A token that exists (an operator's, issued by the rotation call, or the demo one from an earlier
 * start) is never overwritten: a restart must not lock out a bridge.
 */
export async function installDemoBridgeTokens(
  store: Store,
  now: Date,
): Promise<Array<{ locationKey: string; token: string }>> {
  const installed: Array<{ locationKey: string; token: string }> = [];
  for (const location of await store.locations.list()) {
    const token = newBridgeToken();
    if (await store.bridge.addTokenHashIfAbsent(location.key, hashBridgeToken(token), now))
      installed.push({ locationKey: location.key, token });
  }
  return installed;
}

/** The file in `folder` holding a demo bridge's token. */
function demoTokenFile(folder: string, locationKey: string): string {
  return join(folder, `${locationKey}.token`);
}

/** Writes each installed demo token to `<folder>/<key>.token`, readable by its owner only. */
export function writeDemoBridgeTokens(
  folder: string,
  tokens: ReadonlyArray<{ locationKey: string; token: string }>,
): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  for (const { locationKey, token } of tokens) {
    const file = demoTokenFile(folder, locationKey);
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
}

/** The demo token the cloud wrote for `locationKey` in `folder`, or null when there is none. */
export function readDemoBridgeToken(folder: string, locationKey: string): string | null {
  const file = demoTokenFile(folder, locationKey);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}
