// A cloud process for the benchmarks: serves the store named by BENCH_DATABASE_URL (and BENCH_SCHEMA
// on PostgreSQL) on an ephemeral loopback port (BENCH_PORT to choose one), prints `{"url": …}` once listening, stops on SIGTERM.
// BENCH_WEB_DIST serves that web build instead of web/dist; BENCH_SEED=1 adds the demo locations.
// Request logging is silent, as in the tests, so the figures are the service's own cost.
// Its public URL is its own address, so the sandbox gateway's server-to-server notification of a
// payment reaches it (with the default, `http://localhost:0`, every payment stayed unconfirmed).
import { createApp, ROUTE_AREAS } from '@deposito/cloud/app';
import { createWebArea, webArea } from '@deposito/cloud/routes/web/web.routes';
import { seedLocationsAndDiscounts } from '@deposito/cloud/services/demo-seed.service';
import { ensureFirstAdmin } from '@deposito/cloud/routes/admin/admin.routes';
import { loadEnv } from '@deposito/cloud/env';
import { openStore } from '@deposito/cloud/store/store';
import { pino } from 'pino';
import { exitWhenSignalled } from '@deposito/cloud/test/child-cloud';
import { freePort } from '../../support/ports';

const port = Number(process.env.BENCH_PORT ?? 0) || (await freePort());

const env = loadEnv({
  DATABASE_URL: process.env.BENCH_DATABASE_URL,
  PORT: String(port),
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  PAYMENT_PROVIDER: 'sandbox',
  // Every benchmark client is 127.0.0.1: the abuse limits would measure themselves.
  RATE_LIMITS: 'off',
  // The command round trip logs in as this administrator.
  ADMIN_EMAIL: process.env.BENCH_ADMIN_EMAIL || undefined,
  ADMIN_PASSWORD: process.env.BENCH_ADMIN_PASSWORD || undefined,
});
const store = await openStore(env.database, {
  schema: process.env.BENCH_SCHEMA || undefined,
  poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10),
});
const distDir = process.env.BENCH_WEB_DIST;
const cloud = createApp({
  env,
  store,
  logger: pino({ level: 'silent' }),
  ...(distDir
    ? { areas: ROUTE_AREAS.map((area) => (area === webArea ? createWebArea({ distDir }) : area)) }
    : {}),
});
await ensureFirstAdmin(cloud.context);
if (process.env.BENCH_SEED === '1') await seedLocationsAndDiscounts(cloud.context);
const { url } = await cloud.start({
  port,
  host: '127.0.0.1',
  jobs: process.env.BENCH_JOBS === '1',
});
process.stdout.write(`${JSON.stringify({ url })}\n`);
exitWhenSignalled(cloud, store);
