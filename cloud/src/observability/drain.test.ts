import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/test-app';

// SIGTERM drains a cloud process before it stops (issue 20, rolling restarts): the balancer reads
// 503 on /readyz and stops sending requests while the process still answers the ones it gets;
// only then does it stop listening.

let test: TestApp | null = null;
afterEach(async () => {
  await test?.close();
  test = null;
});

describe('draining a cloud process', () => {
  it('answers /readyz 503 while still serving requests, then stops listening', async () => {
    test = await startTestApp();
    const { url, cloud } = test;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);

    const stopped = cloud.stop({ drainMs: 600 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { accepting: 'failing' } });
    // Still serving while the balancer notices.
    expect((await fetch(`${url}/api/locations/vicolo`)).status).toBe(200);

    await stopped;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
