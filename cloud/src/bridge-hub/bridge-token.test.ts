import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import { buildLocation } from '../../test/builders';
import {
  adminToken,
  callJson,
  seedSite,
  SITE_LOCATION,
  startHubCloud,
  type HubCloud,
  bridgeUpgradeStatus,
} from '../../test/bridge-site';
import { STORE_DIALECTS, type TestDatabase, openTestStore } from '../../test/test-store';
import type { Store } from '../store/store';
import { installDemoBridgeTokens, legacyDemoBridgeToken } from './bridge-token';

/** The HTTP status of a bridge's upgrade with this token, or 101 when the socket opened. */
const upgradeStatus = (port: number, token: string, locationKey: string) =>
  bridgeUpgradeStatus(`http://127.0.0.1:${port}`, bridgeAuthHeaders(token, locationKey));

describe.each(STORE_DIALECTS)('demo bridge tokens (%s)', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let site: HubCloud;

  beforeEach(async () => {
    ({ database, store } = await openTestStore(dialect));
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
