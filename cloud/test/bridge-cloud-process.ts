// A second cloud process for the bridge hub's PostgreSQL test: the same app on the same schema,
// in an OS process of its own, so a bridge connected here is reached only through the database.
import { startHubCloud } from './bridge-site';
import { openStore } from '../src/store/store';
import type { DatabaseTarget } from '../src/env';
import type { BridgeHubTuning } from '../src/composition';
import { exitWhenSignalled } from './child-cloud';

const connectionString = process.env.BRIDGE_TEST_DATABASE_URL;
const schema = process.env.BRIDGE_TEST_SCHEMA;
if (!connectionString || !schema)
  throw new Error('BRIDGE_TEST_DATABASE_URL and BRIDGE_TEST_SCHEMA are required');

const target: DatabaseTarget = { dialect: 'postgres', connectionString };
const store = await openStore(target, { schema, poolSize: 4 });
const hub = JSON.parse(process.env.BRIDGE_TEST_HUB_OPTIONS ?? '{}') as BridgeHubTuning;
const cloud = await startHubCloud({ store, target, hub });
process.stdout.write(`listening ${cloud.port}\n`);

exitWhenSignalled(cloud, store, ['SIGTERM', 'SIGINT']);
