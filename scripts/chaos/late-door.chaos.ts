import { afterAll, describe, expect, it } from 'vitest';
import { openLocker, siteStore, startSiteBox, type Cleanups } from './chaos-site';
import { freePort, kill9, startSiteCloud } from './cloud-process';
import { adminSession } from '../support/admin-session';

// Fault injection (issue 19, item 1): the controller is slow (a state poll takes 12 s to answer)
// while the operator presses "Apri". Whatever the operator is told, the door does what the answer
// said: opened on 200; on a timeout the open is cancelled and never runs afterwards, not when the
// poll returns and not later.

const ADMIN = { email: 'ops@deposito.test', password: 'chaos-admin-password' };
const SITE = 'slowsite';

const cleanups: Cleanups = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a slow controller', () => {
  it('never opens a door after the operator was told the open timed out', async () => {
    const { filename, token } = await siteStore({ key: SITE, name: 'Slow site', lockers: 12 }, cleanups);
    const { url, child: cloud } = await startSiteCloud(filename, await freePort(), ADMIN);
    cleanups.push(() => kill9(cloud));
    // A technician's real settings: the controller may take up to 30 s to answer.
    const { simulator, daemon } = await startSiteBox(
      { url, token, locationKey: SITE, lockers: 12, doorOpenMs: 500, controllerTimeoutMs: 30_000 },
      cleanups,
    );
    await expect.poll(() => daemon.link.isUp, { timeout: 30_000 }).toBe(true);
    const session = await adminSession(url, ADMIN);

    // The next state poll hangs for 12 s on the controller; the open comes while it does.
    const polls = simulator.stats.byOperation.getLockersState ?? 0;
    simulator.setFault({ kind: 'slow', delayMs: 12_000 }, 1, 'getLockersState');
    await expect.poll(() => simulator.stats.byOperation.getLockersState ?? 0).toBeGreaterThan(polls);
    const clickedAt = Date.now();
    const answer = await openLocker(url, session, SITE, 3);
    const { body, ms: answeredMs } = answer;

    // Past the slow poll, and long past the operator's answer.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - clickedAt))));
    const opened = simulator.stats.byOperation.open ?? 0;
    expect(answeredMs).toBeLessThan(6_000);
    if (answer.status === 200) {
      expect(body.outcome).toBe('executed');
      expect(opened).toBe(1);
    } else {
      expect([503, 504], JSON.stringify(body)).toContain(answer.status);
      expect(opened, `the operator was told ${answer.status} ${body.error?.code}`).toBe(0);
    }
  }, 90_000);
});
