// A second cloud process for the multi-instance tests: serves the store named by DATABASE_URL and
// TEST_SCHEMA on an ephemeral port, prints `{"url": …}` once listening, and stops on SIGTERM.
import { createApp } from '../src/app';
import { loadEnv } from '../src/env';
import { openStore } from '../src/store/store';
import { silentLogger } from './test-app';
import { exitWhenSignalled } from './child-cloud';

const env = loadEnv({
  DATABASE_URL: process.env.DATABASE_URL,
  PORT: '0',
  PAYMENT_PROVIDER: 'sandbox',
  RATE_LIMITS: 'off',
});
const store = await openStore(env.database, { schema: process.env.TEST_SCHEMA, poolSize: 12 });
const cloud = createApp({ env, store, logger: silentLogger() });
const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
process.stdout.write(`${JSON.stringify({ url })}\n`);
exitWhenSignalled(cloud, store);
