import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, ROUTE_AREAS, type CloudApp } from '../../app';
import { REPO_ROOT, loadEnv } from '../../env';
import { openStore, type Store } from '../../store/store';
import { silentLogger } from '../../../test/test-app';
import { createWebArea } from './web.routes';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
const ASSET = 'assets/index-AbC123.js';

/** A real cloud (every area) serving a small stand-in for web/dist, or no build at all. */
async function startCloud(distDir: string, env: Record<string, string> = {}) {
  const store: Store = await openStore({ dialect: 'sqlite', filename: ':memory:' });
  const areas = [...ROUTE_AREAS.filter((area) => area.name !== 'web'), createWebArea({ distDir })];
  const cloud: CloudApp = createApp({
    env: loadEnv({ DATABASE_URL: 'sqlite::memory:', PORT: '0', ...env }),
    store,
    logger: silentLogger(),
    areas,
  });
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  return {
    url,
    async close() {
      await cloud.stop();
      await store.close();
    },
  };
}

describe('the web app served by the cloud', () => {
  let dist: string;
  let cloud: Awaited<ReturnType<typeof startCloud>>;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'deposito-web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX_HTML);
    writeFileSync(path.join(dist, ASSET), 'console.log(1)');
    writeFileSync(path.join(dist, 'embed.js'), 'void 0');
    cloud = await startCloud(dist, { FRAME_ANCESTORS: "'self' https://www.example.com" });
  });

  afterAll(async () => {
    await cloud.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it.each(['/', '/vicolo', '/booking-notte/campo', '/booking-complete?transactionId=x', '/admin/bookings'])(
    'answers %s with index.html, revalidated on every visit',
    async (pagePath) => {
      const response = await fetch(`${cloud.url}${pagePath}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );

  it('lets other sites frame the customer pages as FRAME_ANCESTORS says, never the admin area', async () => {
    const customer = await fetch(`${cloud.url}/vicolo`);
    expect(customer.headers.get('x-frame-options')).toBeNull();
    expect(customer.headers.get('content-security-policy')).toContain(
      "frame-ancestors 'self' https://www.example.com",
    );
    const admin = await fetch(`${cloud.url}/admin/login`);
    expect(admin.headers.get('x-frame-options')).toBe('DENY');
    expect(admin.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('caches hashed assets for a year and revalidates unhashed files', async () => {
    const asset = await fetch(`${cloud.url}/${ASSET}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const embed = await fetch(`${cloud.url}/embed.js`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    expect((await fetch(`${cloud.url}/assets/index-gone.js`)).status).toBe(404);
  });

  it('leaves the API, the sandbox payment page and the probes to their areas', async () => {
    const api = await fetch(`${cloud.url}/api/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'route/not_found' } });
    expect(await (await fetch(`${cloud.url}/api/locations/vicolo`)).text()).not.toBe(INDEX_HTML);
    expect(await (await fetch(`${cloud.url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${cloud.url}/sandbox-pay?a=x&b=y`)).text()).not.toBe(INDEX_HTML);
  });

  it.each(['it', 'en', 'es', 'jp'])('serves the %s translations from locales/', async (lng) => {
    const response = await fetch(`${cloud.url}/locales/${lng}/common.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const expected: unknown = JSON.parse(
      readFileSync(path.join(REPO_ROOT, 'locales', lng, 'common.json'), 'utf8'),
    );
    expect(await response.json()).toEqual(expected);
  });

  it.each(['/locales/fr/common.json', '/locales/it/other.json', '/locales/../package.json'])(
    'answers 404 for %s',
    async (localePath) => {
      const response = await fetch(`${cloud.url}${localePath}`);
      expect(response.status).toBe(404);
    },
  );
});

describe('the web app before it is built', () => {
  it('tells how to build it on every page path', async () => {
    const missing = path.join(tmpdir(), `deposito-no-dist-${process.pid}`);
    const cloud = await startCloud(missing);
    try {
      for (const pagePath of ['/', '/vicolo']) {
        const response = await fetch(`${cloud.url}${pagePath}`);
        expect(response.status).toBe(503);
        expect(await response.text()).toContain('npm run build -w web');
      }
      expect((await fetch(`${cloud.url}/locales/en/common.json`)).status).toBe(200);
    } finally {
      await cloud.close();
    }
  });
});
