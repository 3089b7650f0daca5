import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, ROUTE_AREAS, type CloudApp } from '../../app';
import { REPO_ROOT, loadEnv } from '../../env';
import { openStore, type Store } from '../../store/store';
import { silentLogger } from '../../../test/test-app';
import { acceptedEncoding, createWebArea } from './web.routes';

/** A GET as a browser sends it with `accept-encoding`, the body left as it came over the wire. */
function rawGet(
  url: string,
  acceptEncoding: string | null,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** What the build's precompress plugin writes beside a file. */
function writeWithCompressedCopies(file: string, content: string): void {
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content));
}

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';
const ASSET = 'assets/index-AbC123.js';
/** A hashed script big enough for the build to have compressed it. */
const BIG_ASSET = 'assets/first-screen-XyZ789.js';
const BIG_SCRIPT = `export const words = ${JSON.stringify('luggage locker '.repeat(400))};\n`;

/** A real cloud (every area) serving a small stand-in for web/dist, or no build at all. */
async function startCloud(distDir: string, env: Record<string, string> = {}) {
  const store: Store = await openStore({ dialect: 'sqlite', filename: ':memory:' });
  const areas = [...ROUTE_AREAS.filter((area) => area.name !== 'web'), createWebArea({ distDir })];
  const cloud: CloudApp = createApp({
    env: loadEnv({ DATABASE_URL: 'sqlite::memory:', PORT: '0', PAYMENT_PROVIDER: 'sandbox', ...env }),
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
    writeFileSync(path.join(dist, `${ASSET}.map`), '{"version":3,"mappings":"AAAA"}');
    writeFileSync(path.join(dist, 'embed.js'), 'void 0');
    writeWithCompressedCopies(path.join(dist, BIG_ASSET), BIG_SCRIPT);
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

  it("asks for the page's translations and its location with the page itself", async () => {
    const withHead = mkdtempSync(path.join(tmpdir(), 'deposito-web-dist-'));
    writeFileSync(
      path.join(withHead, 'index.html'),
      '<html><head><title>Deposito</title></head><body></body></html>',
    );
    const served = await startCloud(withHead);
    const preloads = async (pagePath: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${served.url}${pagePath}`, { headers });
      expect(response.headers.get('vary')).toMatch(/Accept-Language/);
      const html = await response.text();
      expect(html).toMatch(/^<html><head><title>Deposito<\/title>.*<\/head><body><\/body><\/html>$/);
      return [...html.matchAll(/<link rel="preload" href="([^"]+)" as="fetch" crossorigin>/g)].map(
        (m) => m[1],
      );
    };
    try {
      // An English browser: English only (no Italian fallback: every file has every key); the
      // location's two answers.
      expect(await preloads('/vicolo', { 'accept-language': 'en-GB,en;q=0.9,it;q=0.5' })).toEqual([
        '/locales/en/common.json',
        '/api/locations/vicolo',
        '/api/admin/frontend-overrides?location=vicolo',
      ]);
      // ?lng= first, then the language cookie, then the browser's; Japanese is our "jp".
      expect(await preloads('/booking-notte/campo?lng=ja', { 'accept-language': 'es' })).toEqual([
        '/locales/jp/common.json',
        '/api/locations/campo',
        '/api/admin/frontend-overrides?location=campo',
      ]);
      expect(await preloads('/', { cookie: 'a=1; i18next=es', 'accept-language': 'en' })).toEqual([
        '/locales/es/common.json',
      ]);
      // No location on the admin pages, nor for a path that cannot be one.
      expect(await preloads('/admin/dashboard')).toEqual(['/locales/it/common.json']);
      expect(await preloads('/Not-A-Key')).toEqual(['/locales/it/common.json']);
    } finally {
      await served.close();
      rmSync(withHead, { recursive: true, force: true });
    }
  });

  it("asks for the night wizard's chunks with the page on a night path, from the build's manifest", async () => {
    const built = mkdtempSync(path.join(tmpdir(), 'deposito-web-dist-'));
    writeFileSync(
      path.join(built, 'index.html'),
      '<html><head><title>Deposito</title></head><body></body></html>',
    );
    mkdirSync(path.join(built, '.vite'));
    const manifestFile = path.join(built, '.vite', 'manifest.json');
    // The shape of a real one (web/dist/.vite/manifest.json): the entry shares the runtime with
    // the night chunk, which imports it, the entry itself and its own chunks, one of them twice.
    writeFileSync(
      manifestFile,
      JSON.stringify({
        'index.html': {
          file: 'assets/index-E1.js',
          src: 'index.html',
          isEntry: true,
          imports: ['_rolldown-runtime-R1.js'],
          dynamicImports: ['src/night/NightWizardPage.tsx', 'src/home/HomePage.tsx'],
          css: ['assets/index-C1.css'],
        },
        '_rolldown-runtime-R1.js': { file: 'assets/rolldown-runtime-R1.js', name: 'rolldown-runtime' },
        'src/night/NightWizardPage.tsx': {
          file: 'assets/NightWizardPage-N1.js',
          src: 'src/night/NightWizardPage.tsx',
          isDynamicEntry: true,
          imports: ['_rolldown-runtime-R1.js', 'index.html', '_steps-S1.js', '_luxon-L1.js'],
        },
        '_steps-S1.js': { file: 'assets/steps-S1.js', imports: ['index.html', '_luxon-L1.js'] },
        '_luxon-L1.js': { file: 'assets/luxon-L1.js' },
        'src/home/HomePage.tsx': { file: 'assets/HomePage-H1.js', imports: ['index.html'] },
      }),
    );
    const served = await startCloud(built);
    const modulePreloads = async (pagePath: string) => {
      const response = await fetch(`${served.url}${pagePath}`);
      expect(response.status).toBe(200);
      // Allowed by the page's own policy: module scripts from our origin.
      expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      const html = await response.text();
      expect(html).toMatch(/^<html><head><title>Deposito<\/title>.*<\/head><body><\/body><\/html>$/);
      return [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    };
    const nightChunks = ['/assets/NightWizardPage-N1.js', '/assets/steps-S1.js', '/assets/luxon-L1.js'];
    try {
      // The night chunk first, then what it imports; not what index.html loads already.
      expect(await modulePreloads('/booking-notte/vicolo')).toEqual(nightChunks);
      expect(await modulePreloads('/Booking-Notte/campo/?lng=en')).toEqual(nightChunks);
      expect(await modulePreloads('/booking-notte')).toEqual(nightChunks);
      // The location page is in the entry; the other pages wait for their chunks as before.
      for (const pagePath of ['/vicolo', '/', '/booking-notte/vicolo/extra', '/admin/bookings']) {
        expect(await modulePreloads(pagePath)).toEqual([]);
      }
      // The manifest is not one of the files the cloud sends, nor are compressed copies of it.
      writeWithCompressedCopies(manifestFile, readFileSync(manifestFile, 'utf8'));
      for (const suffix of ['', '.br', '.gz']) {
        expect((await rawGet(`${served.url}/.vite/manifest.json${suffix}`, 'br')).status).toBe(404);
        expect((await rawGet(`${served.url}/.vite/manifest.json${suffix}`, null)).status).toBe(404);
      }
      // A manifest being rewritten by a build still gives the page, without the preloads.
      writeFileSync(manifestFile, '{"index.html": {');
      expect(await modulePreloads('/booking-notte/vicolo')).toEqual([]);
      rmSync(manifestFile);
      expect(await modulePreloads('/booking-notte/vicolo')).toEqual([]);
    } finally {
      await served.close();
      rmSync(built, { recursive: true, force: true });
    }
  });

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

  it.each(['/Admin/bookings', '/ADMIN/x', '/%61dmin/', '/aDmIn', '//admin/login', '/admin%2Fbookings'])(
    'never lets %s be framed: the admin area is decided as the router decides it',
    async (pagePath) => {
      const response = await fetch(`${cloud.url}${pagePath}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain('www.example.com');
    },
  );

  it.each(['/', '/vicolo', '/booking-notte/campo', '/administrator', '/index.html'])(
    'gives the customer page %s a strict policy that still lets the host sites frame it',
    async (pagePath) => {
      const response = await fetch(`${cloud.url}${pagePath}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-frame-options')).toBeNull();
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'self' https://www.example.com");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).not.toMatch(/script-src[^;]*unsafe/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('sends HSTS only over HTTPS: never on plain HTTP, nor for an untrusted X-Forwarded-Proto', async () => {
    const plain = await fetch(`${cloud.url}/vicolo`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const behindBalancer = await startCloud(dist, { TRUST_PROXY: 'loopback' });
    try {
      const secure = await fetch(`${behindBalancer.url}/vicolo`, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
      const api = await fetch(`${behindBalancer.url}/api/locations/all`, {
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(api.headers.get('strict-transport-security')).toMatch(/^max-age=31536000/);
      const insecure = await fetch(`${behindBalancer.url}/vicolo`);
      expect(insecure.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await behindBalancer.close();
    }
  });

  it('caches hashed assets for a year and revalidates unhashed files', async () => {
    const asset = await fetch(`${cloud.url}/${ASSET}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const embed = await fetch(`${cloud.url}/embed.js`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('cache-control')).toBe('no-cache');
  });

  it('keeps the source maps to itself unless SERVE_SOURCE_MAPS=1', async () => {
    for (const mapPath of [`/${ASSET}.map`, `/${ASSET}.%6Dap`]) {
      const hidden = await fetch(`${cloud.url}${mapPath}`);
      expect(hidden.status).toBe(404);
      expect(await hidden.text()).not.toContain('mappings');
    }
    const debugging = await startCloud(dist, { SERVE_SOURCE_MAPS: '1' });
    try {
      const served = await fetch(`${debugging.url}/${ASSET}.map`);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('mappings');
    } finally {
      await debugging.close();
    }
  });

  it("sends the build's brotli or gzip copy to a browser that takes it, the file itself otherwise", async () => {
    const url = `${cloud.url}/${BIG_ASSET}`;
    const brotli = await rawGet(url, 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotli.body.length).toBeLessThan(BIG_SCRIPT.length / 10);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(BIG_SCRIPT);

    const gzip = await rawGet(url, 'gzip;q=1.0, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(BIG_SCRIPT);

    const plain = await rawGet(url, null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG_SCRIPT);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    // A small file has no compressed copy: sent as it is.
    expect((await rawGet(`${cloud.url}/${ASSET}`, 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('compresses the translations and the page itself', async () => {
    const translations = await rawGet(`${cloud.url}/locales/it/common.json`, 'br');
    expect(translations.headers['content-encoding']).toBe('br');
    const original = readFileSync(path.join(REPO_ROOT, 'locales', 'it', 'common.json'));
    expect(brotliDecompressSync(translations.body).equals(original)).toBe(true);
    expect(translations.body.length).toBeLessThan(original.length / 2);
    expect((await rawGet(`${cloud.url}/locales/it/common.json`, 'gzip')).headers['content-encoding']).toBe(
      'gzip',
    );

    const compressedDist = mkdtempSync(path.join(tmpdir(), 'deposito-web-dist-'));
    const page = `<!doctype html><html><body>${'<p>Deposito</p>'.repeat(200)}</body></html>`;
    writeWithCompressedCopies(path.join(compressedDist, 'index.html'), page);
    const compressed = await startCloud(compressedDist);
    try {
      const answer = await rawGet(`${compressed.url}/vicolo`, 'br, gzip');
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-security-policy']).toBeDefined();
      expect(brotliDecompressSync(answer.body).toString()).toBe(page);
    } finally {
      await compressed.close();
      rmSync(compressedDist, { recursive: true, force: true });
    }
  });

  it('never sends a compressed copy of a source map unless SERVE_SOURCE_MAPS=1', async () => {
    writeWithCompressedCopies(path.join(dist, `${BIG_ASSET}.map`), '{"version":3,"mappings":"AAAA"}');
    for (const suffix of ['.map', '.map.br', '.map.gz']) {
      expect((await rawGet(`${cloud.url}/${BIG_ASSET}${suffix}`, 'br')).status).toBe(404);
    }
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
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
