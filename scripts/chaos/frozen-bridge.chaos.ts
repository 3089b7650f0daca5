import { describe, expect, it } from 'vitest';
import { LIVE_LOCKERS_PATH, type LiveLockersState } from '@deposito/protocol';
import type { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { openStore, type Store } from '@deposito/cloud/store/store';
import { STORE_DIALECTS } from '@deposito/cloud/test/test-store';
import { freeze, resume, startBridgeProcess } from './bridge-process';
import { kill9 } from './cloud-process';
import { SiteScenario } from './site-scenario';

// Fault injection (issue 19, item 3): the site's bridge daemon (its own process, `edge-bridge run`)
// freezes: SIGSTOP, so its TCP connection stays open and nothing on it answers. The cloud's pings
// find out: within its liveness window the site is reported offline and an operator's open is
// refused at once (503). An open clicked before that is answered 504 and never opens the door, not
// when the daemon resumes (SIGCONT) with that command still in its socket's buffer, nor later.
// Both orders the race can take are forced: the cloud's cancel reaches the frozen socket
// before the ping drops it, or the socket is dropped first and the cancel has to wait for the
// reconnect. On SQLite and on PostgreSQL.

const SITE = 'frozensite';
const scenario = new SiteScenario({ key: SITE, name: 'Frozen site', lockers: 8 });
/** The cloud's defaults (bridge-hub.ts): a ping every 5 s; a socket silent 2.5 s after one is dropped. */
const PING_EVERY_MS = 5_000;
const PONG_TIMEOUT_MS = 2_500;
/** A connection is evidence of a live bridge for 2 pings and a pong timeout. The issue saw ~25 s. */
const LIVENESS_WINDOW_MS = 2 * PING_EVERY_MS + PONG_TIMEOUT_MS;
/** The door opened 13.6 s after the click; an open's command lives 30 s (its TTL). */
const FROZEN_MS = 15_000;

const open = (url: string, session: string, lockerId: number) => scenario.open(url, session, lockerId);

/** What the operators' live grid shows of the site now: the first state its stream sends. */
async function siteShown(url: string, session: string): Promise<LiveLockersState> {
  const stop = new AbortController();
  const answer = await fetch(`${url}${LIVE_LOCKERS_PATH}?location=${SITE}`, {
    headers: { authorization: `Bearer ${session}` },
    signal: stop.signal,
  });
  const reader = answer.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!text.includes('\n\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    stop.abort();
  }
  const data = /^data: (.*)$/m.exec(text)?.[1];
  if (!data) throw new Error(`no state in the live stream (${answer.status}): ${text}`);
  return JSON.parse(data) as LiveLockersState;
}

/** The doors the controller simulator opened, by locker, in order. */
function doorsOpened(simulator: ControllerSimulator): number[] {
  return simulator
    .history()
    .filter((entry) => entry.type === 'door_open')
    .map((entry) => entry.locker);
}

/**
 * When the cloud pinged the site's bridge last: the heartbeat it records for the connection of a
 * bridge that answered (the pings go out at the same instant, every PING_EVERY_MS). Waits for one.
 */
async function lastPing(store: Store): Promise<number> {
  const heartbeat = async () =>
    (await store.bridge.liveConnection(SITE, new Date(0)))?.heartbeatAt.getTime() ?? null;
  const before = await heartbeat();
  let at: number | null = null;
  await expect
    .poll(async () => (at = await heartbeat()) !== null && at !== before, {
      timeout: 3 * PING_EVERY_MS,
      interval: 50,
    })
    .toBe(true);
  return at!;
}

/** Waits until `offsetMs` after (or before, negative) one of the cloud's next pings. */
async function untilPingOffset(store: Store, offsetMs: number): Promise<void> {
  const ping = await lastPing(store);
  let at = ping + offsetMs;
  while (at < Date.now() + 200) at += PING_EVERY_MS;
  await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
}

const RACES = [
  {
    name: 'the cancel reaches the frozen socket before the ping drops it',
    // Frozen just after a ping was answered: the next one is 5 s away, the operator's answer 4.5 s.
    freezeAfterPingMs: 300,
  },
  {
    name: 'the ping drops the frozen socket before the cancel',
    // Frozen just before a ping: dropped 3.2 s later, before the operator's answer at 4.5 s.
    freezeAfterPingMs: -700,
  },
];

describe.each(STORE_DIALECTS)('a frozen bridge, on %s', (dialect) => {
  it.each(RACES)(
    'is offline within the liveness window and a 504 open never runs: $name',
    async (race) => {
      const { database, token } = await scenario.database(dialect);
      const { url } = await scenario.cloud(database.url);
      const store = await openStore(database.target);
      scenario.defer(() => store.close());
      const simulator = await scenario.controller(200);
      const config = scenario.bridgeConfig(url, token, {
        controller: simulator.connection(),
        logLevel: 'warn',
      });
      const bridge = await startBridgeProcess(config);
      // SIGKILL ends a stopped process too.
      scenario.defer(() => kill9(bridge.child));
      const session = await scenario.session(url);
      await expect.poll(async () => (await siteShown(url, session)).online, { timeout: 30_000 }).toBe(true);
      // The site works: the door opens on the operator's click.
      await expect.poll(async () => (await open(url, session, 2)).status, { timeout: 30_000 }).toBe(200);
      expect(doorsOpened(simulator)).toEqual([2]);

      await untilPingOffset(store, race.freezeAfterPingMs);
      freeze(bridge.child);
      const frozenAt = Date.now();
      // Clicked before the cloud has noticed: the command goes into the frozen daemon's socket.
      const early = open(url, session, 3);
      await expect
        .poll(async () => (await siteShown(url, session)).online, {
          timeout: LIVENESS_WINDOW_MS,
          interval: 100,
        })
        .toBe(false);
      expect(Date.now() - frozenAt).toBeLessThan(LIVENESS_WINDOW_MS);
      const told = await early;
      // Not confirmed in time: cancelled, and the operator is told so.
      expect(told.status, JSON.stringify(told.body)).toBe(504);
      expect(told.body.error?.code).toBe('bridge/timeout');
      // Once noticed, refused at once and never queued.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const answer = await open(url, session, 4);
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(answer.body.error?.code).toBe('bridge/offline');
        expect(answer.ms).toBeLessThan(100);
      }

      // The daemon wakes up with the command in its socket's buffer, well inside the command's TTL.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, FROZEN_MS - (Date.now() - frozenAt))));
      resume(bridge.child);
      await expect.poll(async () => (await siteShown(url, session)).online, { timeout: 60_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(doorsOpened(simulator), bridge.output()).toEqual([2]);
      expect(simulator.stats.byOperation.open).toBe(1);
      // And the site works again.
      await expect.poll(async () => (await open(url, session, 5)).status, { timeout: 30_000 }).toBe(200);
      expect(doorsOpened(simulator)).toEqual([2, 5]);
    },
    150_000,
  );
});
