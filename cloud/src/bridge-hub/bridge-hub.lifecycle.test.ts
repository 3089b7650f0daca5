import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import pg from 'pg';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import { buildEmptyHello } from '../../test/builders';
import { seedSite, SITE_LOCATION, SITE_TOKEN, startHubCloud, type HubCloud } from '../../test/bridge-site';
import { STORE_DIALECTS, testPostgresUrl, type TestDatabase, openTestStore } from '../../test/test-store';
import type { Store } from '../store/store';
import type { BridgeHub } from './bridge-hub';

// Apps started with `jobs: false` (most route tests) still accept bridges on /bridge: stopping such
// an app must close those sockets itself, or the HTTP server waits for them forever.

/** A bridge's socket, greeted as the edge bridge does, resolving with the close code it gets. */
async function connectBridge(url: string): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/bridge`, {
    headers: bridgeAuthHeaders(SITE_TOKEN, SITE_LOCATION),
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify(buildEmptyHello(SITE_LOCATION, 'test')));
  return { socket, closed };
}

/** Rejects instead of hanging the file when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]);
}

describe.each(STORE_DIALECTS)('a cloud started without its jobs (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let site: HubCloud;
  let bridge: WebSocket | null = null;
  const hub = (): BridgeHub => site.hub;

  beforeEach(async () => {
    ({ database, store } = await openTestStore(dialect));
    await seedSite(store, 2);
    site = await startHubCloud({ store, target: database.target, jobs: false });
  });

  afterEach(async () => {
    bridge?.terminate();
    bridge = null;
    await site.stop();
    await store.close();
    await database.dispose();
  });

  it('closes a connected bridge when it stops instead of waiting for it', async () => {
    const connected = await connectBridge(site.url);
    bridge = connected.socket;
    await expect.poll(() => hub().connectedLocations()).toEqual([SITE_LOCATION]);

    await within(site.stop(), 5_000, 'stopping the cloud');
    // Going away, as on any shutdown: the bridge reconnects with its backoff.
    expect(await connected.closed).toBe(1001);
    expect(hub().connectedLocations()).toEqual([]);
  });

  if (dialect === 'postgres') {
    it('ends the LISTEN session of a hub started by hand', async () => {
      await hub().start();
      const channel = await store.bridge.notificationChannel();
      const listening = async () => {
        const client = new pg.Client({ connectionString: testPostgresUrl() });
        await client.connect();
        try {
          const { rows } = await client.query<{ count: string }>(
            'select count(*) as count from pg_stat_activity where query = $1',
            [`LISTEN ${pg.escapeIdentifier(channel)}`],
          );
          return Number(rows[0]?.count);
        } finally {
          await client.end();
        }
      };
      expect(await listening()).toBe(1);
      const connected = await connectBridge(site.url);
      bridge = connected.socket;
      await expect.poll(() => hub().connectedLocations()).toEqual([SITE_LOCATION]);

      await within(site.stop(), 5_000, 'stopping the cloud');
      expect(await connected.closed).toBe(1001);
      await expect.poll(listening).toBe(0);
    });
  }
});
