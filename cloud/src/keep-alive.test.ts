import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminTestApp, type AdminTestApp } from '../test/admin-test-app';
import { KEEP_ALIVE_TIMEOUT_MS } from './app';

// An idle connection outlives the balancer's and the clients' idle reuse (HAProxy's `timeout server`
// is 60 s): with Node's 5 s, a request sent on a connection the cloud was closing met a reset.

describe('keep-alive connections', () => {
  let app: AdminTestApp;
  beforeAll(async () => {
    app = await startAdminTestApp();
  });
  afterAll(() => app?.close());

  function get(agent: http.Agent): Promise<{ keepAlive: string | undefined; socket: unknown }> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${app.url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ keepAlive: response.headers['keep-alive']?.toString(), socket: request.socket }),
        );
      });
      request.on('error', reject);
    });
  }

  it('tells clients it keeps an idle connection for 65 s, and serves the next request on it', async () => {
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent);
      expect(first.keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
      const second = await get(agent);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });
});
