import { describe, expect, it } from 'vitest';
import { STORE_DIALECTS } from '@deposito/cloud/test/test-store';
import { SiteScenario } from './site-scenario';

// Fault injection (issue 19, item 1): the controller is slow (a state poll takes 12 s to answer)
// while the operator presses "Apri". Whatever the operator is told, the door does what the answer
// said: opened on 200; on a timeout the open is cancelled and never runs afterwards, not when the
// poll returns and not later. On SQLite and on PostgreSQL.

const scenario = new SiteScenario({ key: 'slowsite', name: 'Slow site', lockers: 12 });

describe.each(STORE_DIALECTS)('a slow controller, on %s', (dialect) => {
  it('never opens a door after the operator was told the open timed out', async () => {
    const { database, token } = await scenario.database(dialect);
    const { url } = await scenario.cloud(database.url);
    const simulator = await scenario.controller(500);
    // A technician's real settings: the controller may take up to 30 s to answer.
    const config = scenario.bridgeConfig(url, token, { controller: simulator.connection(30_000) });
    const daemon = await scenario.daemon(config);
    await expect.poll(() => daemon.link.isAccepted, { timeout: 30_000 }).toBe(true);
    const session = await scenario.session(url);

    // The next state poll hangs for 12 s on the controller; the open comes while it does.
    const polls = simulator.stats.byOperation.getLockersState ?? 0;
    simulator.setFault({ kind: 'slow', delayMs: 12_000 }, 1, 'getLockersState');
    await expect.poll(() => simulator.stats.byOperation.getLockersState ?? 0).toBeGreaterThan(polls);
    const clickedAt = Date.now();
    const { status, body, ms: answeredMs } = await scenario.open(url, session, 3);

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
