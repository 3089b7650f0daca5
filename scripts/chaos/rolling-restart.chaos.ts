import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  BridgeProcess,
  callJson,
  seedSite,
  SimulatorProcess,
  SITE_LOCATION,
} from '@deposito/cloud/test/bridge-site';
import { bookAndPay, futureHold, type VisitorFlow } from '@deposito/cloud/test/visitor-flow';
import { openStore } from '@deposito/cloud/store/store';
import { startCluster, type Cluster } from '../cluster';
import { freePortRange } from '../support/ports';

// A rolling restart (issue 20): two cloud processes on PostgreSQL behind HAProxy, one site with its
// bridge and controller; while visitors book and pay and an operator keeps opening lockers, every
// cloud process is restarted in turn (SIGTERM drains it: /readyz 503, requests finished, bridges
// closed with "going away"). No booking fails, no payment notification is lost, no door opens
// that the operator was not told opened (so none twice), and the bridge is linked again.

const cleanups: Array<() => Promise<unknown> | unknown> = [];
// Stopping the cluster drains each process (up to its DRAIN_MS) and drops the database: on a
// loaded CI machine that outlasts vitest's default 10 s for a hook.
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 120_000);

describe('rolling restart behind HAProxy', () => {
  it('restarts every cloud process in turn under bookings, payments and operator opens without losing any', async () => {
    const server = process.env.TEST_DATABASE_URL!;
    const name = `deposito_rr_${randomBytes(4).toString('hex')}`;
    const databaseUrl = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
    const dataDir = mkdtempSync(join(tmpdir(), 'deposito-rolling-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    });

    const cluster: Cluster = await startCluster({
      databaseUrl,
      fresh: true,
      port: freePortRange(3),
      size: 2,
      adminEmail: 'admin@deposito.test',
      adminPassword: 'rolling-restart-test',
      dataDir,
      buildWeb: false,
      demoSites: false,
      // Every visitor of this test is 127.0.0.1, booking in a loop.
      rateLimits: 'off',
    });
    cleanups.push(() => cluster.stop());

    // One site of our own on free ports: 12 lockers, its bridge through the balancer.
    const store = await openStore({ dialect: 'postgres', connectionString: databaseUrl });
    cleanups.push(() => store.close());
    await seedSite(store, 12);
    const token = await adminToken(store);
    const simulator = await SimulatorProcess.start({ lockers: 12, doorOpenMs: 200 });
    cleanups.push(() => simulator.stop());
    const bridge = await BridgeProcess.start({ cloudUrl: cluster.url, controllerPort: simulator.port });
    cleanups.push(() => bridge.stop());
    await bridge.polledSinceNow(30_000);
    const linked = async () => (await bridge.health()).link.up;
    await expect.poll(linked, { timeout: 30_000 }).toBe(true);

    let restarting = true;
    const flows: VisitorFlow[] = [];
    const opens: Array<{ status: number; outcome?: string }> = [];
    const visitors = (async () => {
      for (let n = 0; restarting || n < 4; n++) flows.push(await bookAndPay(cluster.url, futureHold(n)));
    })();
    const operator = (async () => {
      for (let n = 0; restarting || n < 4; n++) {
        const answer = await callJson<{ outcome?: string }>(cluster.url, 'POST', '/api/lockers/open', {
          token,
          body: { location: SITE_LOCATION, lockerId: 1 + (n % 12) },
        }).catch(() => ({ status: 0, body: {} as { outcome?: string } }));
        opens.push({ status: answer.status, outcome: answer.body?.outcome });
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    await cluster.rollingRestart();
    restarting = false;
    await Promise.all([visitors, operator]);

    // No failed booking: every flow went through and its booking is paid.
    expect(
      flows
        .filter((flow) => flow.error)
        .slice(0, 5)
        .map((flow) => flow.error),
    ).toEqual([]);
    expect(flows.length).toBeGreaterThan(8);
    const ids = flows.map((flow) => flow.transactionId!);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    cleanups.push(() => client.end());
    const { rows: bookings } = await client.query<{ status: string }>(
      'SELECT status FROM bookings WHERE transaction_id = ANY($1)',
      [ids],
    );
    expect(bookings.map((row) => row.status).sort()).toEqual(ids.map(() => 'scheduled'));
    // No lost notification: each paid booking's confirmation e-mail is queued (and sent once).
    await expect
      .poll(
        async () =>
          (
            await client.query<{ n: string }>(
              `SELECT count(DISTINCT transaction_id) AS n FROM email_outbox
               WHERE transaction_id = ANY($1) AND sent_at IS NOT NULL`,
              [ids],
            )
          ).rows[0]!.n,
        { timeout: 30_000 },
      )
      .toBe(String(ids.length));

    // Doors: every open answered "opened" opened one door, nothing else opened one.
    const opened = opens.filter((open) => open.status === 200).length;
    const statuses = opens.map((open) => open.status).join(' ');
    expect(opened, `${statuses}; bridge: ${JSON.stringify((await bridge.health()).link)}`).toBeGreaterThan(
      opens.length / 2,
    );
    expect(opens.filter((open) => open.status >= 500 && open.status !== 503 && open.status !== 504)).toEqual(
      [],
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await simulator.operations('open')).toBe(opened);

    // The bridge is linked again, and the processes answer ready through the balancer.
    await expect.poll(linked, { timeout: 30_000 }).toBe(true);
    expect((await fetch(`${cluster.url}/readyz`)).status).toBe(200);
  }, 240_000);
});
