import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import { buildLocation } from '../../test/builders';
import {
  adminToken,
  callJson,
  seedSite,
  SITE_LOCATION,
  startHubCloud,
  type HubCloud,
} from '../../test/bridge-site';
import { createTestDatabase, STORE_DIALECTS, type TestDatabase } from '../../test/test-store';
import type { Store } from '../store/store';
import { installDemoBridgeTokens, legacyDemoBridgeToken } from './bridge-token';

/** The HTTP status of a bridge's upgrade with this token, or 101 when the socket opened. */
function upgradeStatus(port: number, token: string, locationKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/bridge`, {
      headers: bridgeAuthHeaders(token, locationKey),
    });
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      socket.terminate();
      resolve(response.statusCode ?? 0);
    });
    socket.once('open', () => {
      socket.close();
      resolve(101);
    });
    socket.once('error', (error) => {
      if (!String(error.message).includes('Unexpected server response')) reject(error);
    });
  });
}

describe.each(STORE_DIALECTS)('demo bridge tokens (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let site: HubCloud;

  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    store = await database.open();
    await seedSite(store, 2);
    site = await startHubCloud({ store, target: database.target, jobs: false });
  });

  afterEach(async () => {
    await site.stop();
    await store.close();
    await database.dispose();
  });

  it('never overwrite a token an operator issued, and give a location without one a random token', async () => {
    const rotated = await callJson<{ token: string }>(
      site.url,
      'POST',
      `/api/admin/locations/${SITE_LOCATION}/bridge-token`,
      { token: await adminToken(store), body: {} },
    );
    expect(rotated.status).toBe(200);
    await store.locations.save(buildLocation({ key: 'newsite' }), new Date());

    // What a DEMO=1 start does, twice (two restarts).
    const installed = await installDemoBridgeTokens(store, new Date());
    expect(installed).toEqual([{ locationKey: 'newsite', token: expect.stringMatching(/^[\w-]{43}$/) }]);
    expect(await installDemoBridgeTokens(store, new Date())).toEqual([]);

    expect(await upgradeStatus(site.port, rotated.body.token, SITE_LOCATION)).toBe(101);
    expect(await upgradeStatus(site.port, installed[0]!.token, 'newsite')).toBe(101);
    expect(await upgradeStatus(site.port, legacyDemoBridgeToken('newsite'), 'newsite')).toBe(401);
  });
});
