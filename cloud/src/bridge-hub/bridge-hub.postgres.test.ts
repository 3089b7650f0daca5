import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BridgeProcess,
  callJson,
  CloudProcess,
  SITE_LOCATION,
  stopSite,
  waitUntilSiteOnline,
  useTestSite,
  reserveAtSite,
  expectPinProgrammed,
} from '../../test/bridge-site';
import { testPostgresUrl } from '../../test/test-store';
import type { BridgeHub } from './bridge-hub';
import type { HubLockerFullState } from './hub-locker-control';

// Two cloud processes on one PostgreSQL schema. The bridge holds its socket on the other OS process
// (`holder`); operators and booking events arrive here (`front`). Only the outbox table and
// LISTEN/NOTIFY connect the two: the hubs' periodic sweep and result polling, which would also get
// there eventually, are slowed down beyond the tests' waits.

const NOTIFY_ONLY = { sweepMs: 60_000, resultPollMs: 60_000 };

const LOCKERS = 6;

const front = useTestSite({ dialect: 'postgres', lockers: LOCKERS, hub: NOTIFY_ONLY });
let holder: CloudProcess;

const frontHub = (): BridgeHub => front.hub;

beforeAll(async () => {
  holder = await CloudProcess.start({
    connectionString: testPostgresUrl(),
    schema: front.database.schema!,
    hub: NOTIFY_ONLY,
  });
  front.bridge = await BridgeProcess.start({ cloudUrl: holder.url, controllerPort: front.simulator.port });
  await waitUntilSiteOnline(frontHub(), front.bridge);
});

// Before the front's own site stops (the bridge first, as always).
afterAll(() => stopSite({ bridge: front.bridge, clouds: [holder] }));

describe('bridge hub across cloud processes on PostgreSQL', () => {
  it("reaches a bridge held by another process with an operator's open, and answers with its result", async () => {
    expect(frontHub().connectedLocations()).toEqual([]);
    const answer = await callJson<{ outcome: string; commandId: string }>(
      front.url,
      'POST',
      '/api/lockers/open',
      {
        token: front.token,
        body: { location: SITE_LOCATION, lockerId: 2 },
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: true, outcome: 'executed' });
    expect((await front.simulator.locker(2))?.doorOpen).toBe(true);
    expect(await front.store.bridge.getCommand(answer.body.commandId)).toMatchObject({
      status: 'succeeded',
      attempts: 1,
    });

    // The other process stored the state it heard; this one reads it.
    await expect
      .poll(async () => {
        const lockers = (
          await callJson<HubLockerFullState[]>(
            front.url,
            'GET',
            `/api/lockers/full-state?location=${SITE_LOCATION}`,
            {
              token: front.token,
            },
          )
        ).body;
        return lockers.find((l) => l.id === 2)?.doorOpen;
      })
      .toBe(true);
  });

  it('programs a PIN through the other process when a booking is paid here', async () => {
    const now = new Date();
    const booking = await reserveAtSite(front.store, [3], {
      pin: '730418',
      startAt: new Date(now.getTime() - 60_000),
      endAt: new Date(now.getTime() + 3600_000),
    });
    front.cloud.context.events.emit({ type: 'booking.confirmed', booking });
    await expectPinProgrammed(front, booking.transactionId, 3, '730418');
  });

  it('closes the bridge on the other process when its token is rotated here', async () => {
    const rotated = await callJson<{ token: string }>(
      front.url,
      'POST',
      `/api/admin/locations/${SITE_LOCATION}/bridge-token`,
      { token: front.token, body: {} },
    );
    expect(rotated.status).toBe(200);
    await expect
      .poll(async () => (await front.bridge.health()).link.state, { timeout: 10_000 })
      .toBe('refused');
    await expect.poll(() => frontHub().isOnline(SITE_LOCATION)).toBe(false);
  });
});
