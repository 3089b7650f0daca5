import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import { buildBridgeConfig } from '@deposito/edge-bridge/test/builders';
import { STORE_DIALECTS } from '@deposito/cloud/test/test-store';
import {
  freePort,
  kill9,
  operatorOpen,
  prepareSiteStore,
  scenarioDatabase,
  startSiteCloud,
} from './cloud-process';
import { adminSession } from '../support/admin-session';

// Fault injection (issue 19, item 1): the controller is slow (a state poll takes 12 s to answer)
// while the operator presses "Apri". Whatever the operator is told, the door does what the answer
// said: opened on 200; on a timeout the open is cancelled and never runs afterwards, not when the
// poll returns and not later. On SQLite and on PostgreSQL.

const ADMIN = { email: 'ops@deposito.test', password: 'chaos-admin-password' };
const SITE = 'slowsite';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(STORE_DIALECTS)('a slow controller, on %s', (dialect) => {
  it('never opens a door after the operator was told the open timed out', async () => {
    const database = await scenarioDatabase(dialect);
    cleanups.push(() => database.dispose());
    const token = await prepareSiteStore(database.url, { key: SITE, name: 'Slow site', lockers: 12 });
    const { url, child: cloud } = await startSiteCloud(database.url, await freePort(), ADMIN);
    cleanups.push(() => kill9(cloud));
    const simulator = new ControllerSimulator({ lockers: 12, doorOpenMs: 500 });
    await simulator.start();
    cleanups.push(() => simulator.stop());
    // A technician's real settings: the controller may take up to 30 s to answer.
    const config = buildBridgeConfig({
      cloudUrl: url,
      bridgeToken: token,
      locationKey: SITE,
      controller: simulator.connection(30_000),
      pollIntervalMs: 500,
    });
    const daemon = new BridgeDaemon({ config });
    cleanups.push(() => rmSync(config.dataDir, { recursive: true, force: true }));
    cleanups.push(() => daemon.stop());
    await daemon.start();
    await expect.poll(() => daemon.link.isUp, { timeout: 30_000 }).toBe(true);
    const session = await adminSession(url, ADMIN);

    // The next state poll hangs for 12 s on the controller; the open comes while it does.
    const polls = simulator.stats.byOperation.getLockersState ?? 0;
    simulator.setFault({ kind: 'slow', delayMs: 12_000 }, 1, 'getLockersState');
    await expect.poll(() => simulator.stats.byOperation.getLockersState ?? 0).toBeGreaterThan(polls);
    const clickedAt = Date.now();
    const { status, body, ms: answeredMs } = await operatorOpen(url, session, SITE, 3);

    // Past the slow poll, and long past the operator's answer.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - clickedAt))));
    const opened = simulator.stats.byOperation.open ?? 0;
    expect(answeredMs).toBeLessThan(6_000);
    if (status === 200) {
      expect(body.outcome).toBe('executed');
      expect(opened).toBe(1);
    } else {
      expect([503, 504], JSON.stringify(body)).toContain(status);
      expect(opened, `the operator was told ${status} ${body.error?.code}`).toBe(0);
    }
  }, 90_000);
});
