import {
  LIVE_LOCKERS_EVENT,
  LIVE_LOCKERS_PATH,
  liveLockersStateSchema,
  type LiveLockersState,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import {
  adminToken,
  BridgeProcess,
  callJson,
  SITE_LOCATION,
  startHubCloud,
  useTestSite,
} from '../../../test/bridge-site';

// Issue 17: before, the locker grid showed stale state as current (nothing said a site was offline
// or a door open, nothing refreshed by itself). The live stream pushes the grid's state as it
// changes; here a real bridge and controller simulator run as processes, the cloud in this one.

const LOCKERS = 4;

/** An open event stream: the `lockers` events received so far, parsed. */
class LiveStream {
  readonly states: LiveLockersState[] = [];
  private readonly abort = new AbortController();
  ended = false;

  static async open(
    url: string,
    token: string,
    location: string,
  ): Promise<{ status: number; stream: LiveStream }> {
    const stream = new LiveStream();
    const response = await fetch(`${url}${LIVE_LOCKERS_PATH}?location=${location}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: stream.abort.signal,
    });
    if (response.status === 200) void stream.read(response);
    else await response.body?.cancel();
    return { status: response.status, stream };
  }

  private async read(response: Response): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event === LIVE_LOCKERS_EVENT && data)
            this.states.push(liveLockersStateSchema.parse(JSON.parse(data)));
        }
      }
    } catch {
      // aborted
    }
    this.ended = true;
  }

  latest(): LiveLockersState | undefined {
    return this.states.at(-1);
  }

  close(): void {
    this.abort.abort();
  }
}

const site = useTestSite({ dialect: 'sqlite', lockers: LOCKERS, doorOpenMs: 3600_000 });

describe('the live locker grid', () => {
  it('needs an administrator and a known location', async () => {
    expect((await fetch(`${site.url}${LIVE_LOCKERS_PATH}?location=${SITE_LOCATION}`)).status).toBe(401);
    expect((await LiveStream.open(site.url, site.token, 'nowhere')).status).toBe(404);
    expect((await LiveStream.open(site.url, site.token, '../x')).status).toBe(400);
  });

  it('pushes the site going online, a door opening and the site going offline, as they happen', async () => {
    const { status, stream } = await LiveStream.open(site.url, site.token, SITE_LOCATION);
    expect(status).toBe(200);
    try {
      // No bridge yet: offline, never heard from, every tile marked stale.
      await expect
        .poll(() => stream.latest())
        .toMatchObject({ location: SITE_LOCATION, online: false, lastSeenAt: null });
      expect(stream.latest()!.lockers).toHaveLength(LOCKERS);
      expect(stream.latest()!.lockers.every((locker) => locker.stale)).toBe(true);

      site.bridge = await BridgeProcess.start({ cloudUrl: site.url, controllerPort: site.simulator.port });
      await expect.poll(() => stream.latest()?.online, { timeout: 15_000 }).toBe(true);
      // Once the bridge reported the lockers, the tiles are current.
      await expect
        .poll(() => stream.latest()?.lockers.every((locker) => !locker.stale), { timeout: 15_000 })
        .toBe(true);

      const opened = await callJson(site.url, 'POST', '/api/lockers/open', {
        token: site.token,
        body: { location: SITE_LOCATION, lockerId: 2 },
      });
      expect(opened.status).toBe(200);
      await expect
        .poll(() => stream.latest()?.lockers.find((locker) => locker.id === 2)?.doorOpen, { timeout: 15_000 })
        .toBe(true);

      const before = stream.states.length;
      await site.bridge.stop();
      await expect.poll(() => stream.latest()?.online, { timeout: 15_000 }).toBe(false);
      const offline = stream.latest()!;
      expect(offline.lastSeenAt).not.toBeNull();
      expect(offline.lockers.every((locker) => locker.stale)).toBe(true);
      // Pushed as it changed, not resent every second.
      expect(stream.states.length - before).toBeLessThanOrEqual(2);
    } finally {
      stream.close();
    }
  });

  it('ends a stream with its session: signed out, or the account removed by an administrator', async () => {
    // Before, a stream opened once kept pushing the site's lockers (and their bookings' references)
    // to a browser whose session had ended, for as long as it stayed open.
    const signedOut = await adminToken(site.store);
    const first = await LiveStream.open(site.url, signedOut, SITE_LOCATION);
    expect(first.status).toBe(200);
    await expect.poll(() => first.stream.states.length).toBeGreaterThan(0);
    const logout = await callJson(site.url, 'POST', '/api/admin/logout', { token: signedOut });
    expect(logout.status).toBe(200);
    await expect.poll(() => first.stream.ended, { timeout: 5_000 }).toBe(true);

    const removed = await adminToken(site.store);
    const second = await LiveStream.open(site.url, removed, SITE_LOCATION);
    await expect.poll(() => second.stream.states.length).toBeGreaterThan(0);
    const me = await callJson<{ email: string }>(site.url, 'GET', '/api/admin/me', { token: removed });
    const account = await site.store.adminUsers.findByEmail(me.body.email);
    const removal = await callJson(site.url, 'DELETE', `/api/admin/users/${account!.id}`, {
      token: site.token,
    });
    expect(removal.status).toBe(200);
    await expect.poll(() => second.stream.ended, { timeout: 5_000 }).toBe(true);
    // The browser's retry meets the sign-in.
    expect((await LiveStream.open(site.url, removed, SITE_LOCATION)).status).toBe(401);

    // A stream whose session holds carries on meanwhile.
    const kept = await LiveStream.open(site.url, site.token, SITE_LOCATION);
    try {
      await expect.poll(() => kept.stream.states.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(kept.stream.ended).toBe(false);
    } finally {
      kept.stream.close();
    }
  });

  it('ends open streams when the cloud stops, without waiting for them', async () => {
    const other = await startHubCloud({ store: site.store, target: site.database.target, jobs: false });
    const { stream } = await LiveStream.open(other.url, site.token, SITE_LOCATION);
    await expect.poll(() => stream.states.length).toBeGreaterThan(0);
    const startedAt = Date.now();
    await other.stop();
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    await expect.poll(() => stream.ended).toBe(true);
  });
});
