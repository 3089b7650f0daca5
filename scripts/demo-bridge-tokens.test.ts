// Issue 14 item 1, through the cloud as operators start it (`cloud/src/main.ts` in its own process):
// demo bridge tokens are random per install and written owner-only for the start script, and a
// token of the old derivation (sha256 of the location key) is refused, and removed at any start
// with a loud log line, even on a store once started with DEMO=1 and now started with DEMO=0.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_LOCATIONS } from '@deposito/protocol';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import {
  hashBridgeToken,
  legacyDemoBridgeToken,
  readDemoBridgeToken,
} from '@deposito/cloud/bridge-hub/bridge-token';
import { openStore } from '@deposito/cloud/store/store';
import { bridgeUpgradeStatus } from '@deposito/cloud/test/bridge-site';
import { freePort, startCloud } from './chaos/cloud-process';

/** The HTTP status of a bridge's upgrade with this token, or 101 when the socket opened. */
const upgradeStatus = (url: string, token: string, locationKey: string) =>
  bridgeUpgradeStatus(url, bridgeAuthHeaders(token, locationKey));

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe('demo bridge tokens', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];

  afterEach(async () => {
    await Promise.all(children.splice(0).map(stop));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function cloudOn(databaseFile: string, env: Record<string, string>) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let printed = '';
    const child = await startCloud(
      {
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: `sqlite:${databaseFile}`,
        LOG_LEVEL: 'info',
        ...env,
      },
      (chunk) => (printed += chunk),
    );
    children.push(child);
    return { url, child, printed: () => printed };
  }

  it('are random per install, owner-only on disk, and the old derivable ones are refused and removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deposito-demo-tokens-'));
    dirs.push(dir);
    const databaseFile = join(dir, 'deposito.db');
    const tokensDir = join(dir, 'bridge-tokens');
    const [first, second] = SEED_LOCATIONS;

    // A demo start gives every location a random token and writes it for the start script.
    const demo = await cloudOn(databaseFile, { DEMO: '1', DEMO_BRIDGE_TOKENS_DIR: tokensDir });
    expect(readdirSync(tokensDir).sort()).toEqual(SEED_LOCATIONS.map((l) => `${l.key}.token`).sort());
    expect(statSync(tokensDir).mode & 0o077).toBe(0);
    const tokens = new Map(SEED_LOCATIONS.map((l) => [l.key, readDemoBridgeToken(tokensDir, l.key)!]));
    for (const location of SEED_LOCATIONS) {
      const token = tokens.get(location.key)!;
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(token).not.toBe(legacyDemoBridgeToken(location.key));
      expect(statSync(join(tokensDir, `${location.key}.token`)).mode & 0o077).toBe(0);
    }
    expect(await upgradeStatus(demo.url, tokens.get(first!.key)!, first!.key)).toBe(101);
    expect(await upgradeStatus(demo.url, legacyDemoBridgeToken(first!.key), first!.key)).toBe(401);
    await stop(demo.child);

    // A store an older version started with DEMO=1 holds the derivable token for a location.
    const store = await openStore({ dialect: 'sqlite', filename: databaseFile });
    await store.bridge.setTokenHash(
      first!.key,
      hashBridgeToken(legacyDemoBridgeToken(first!.key)),
      new Date(),
    );
    await store.close();

    // Started later outside demo mode: the derivable token is removed, with a loud line, and refused.
    const production = await cloudOn(databaseFile, { DEMO: '0', PAYMENT_PROVIDER: 'sandbox' });
    expect(await upgradeStatus(production.url, legacyDemoBridgeToken(first!.key), first!.key)).toBe(401);
    // The other locations keep the tokens their bridges hold.
    expect(await upgradeStatus(production.url, tokens.get(second!.key)!, second!.key)).toBe(101);
    await stop(production.child);
    const log = production.printed();
    expect(log).toContain('REMOVED the old derivable demo bridge tokens');
    expect(log).toContain(`"locations":["${first!.key}"]`);
    const after = await openStore({ dialect: 'sqlite', filename: databaseFile });
    expect(await after.bridge.tokenHash(first!.key)).toBeNull();
    expect(await after.bridge.tokenHash(second!.key)).toBe(hashBridgeToken(tokens.get(second!.key)!));
    await after.close();
  }, 120_000);
});
