// How tests start the edge-bridge CLI in a process of its own (`edge-bridge run`, the controller
// simulator): the built bundle a site box runs when the test run made one, else the TypeScript source.
import path from 'node:path';
import { REPO_ROOT } from '../src/env';

/**
 * The environment variable naming the built CLI (`edge-bridge.mjs`): set by the test runs' global
 * set-up (`scripts/support/built-edge-bridge.ts`), which builds the bundle once per run. Through tsx
 * each start cost about a second of CPU loading the sources; the bundle starts in a tenth of that.
 */
export const BUILT_EDGE_BRIDGE_ENV = 'DEPOSITO_TEST_EDGE_BRIDGE';

const SOURCE_CLI = path.join(REPO_ROOT, 'edge-bridge', 'src', 'cli', 'main.ts');

/** Node's arguments to run the edge-bridge CLI with `args`. */
export function edgeBridgeNodeArgs(args: readonly string[]): string[] {
  const built = process.env[BUILT_EDGE_BRIDGE_ENV];
  return built ? [built, ...args] : ['--import', 'tsx', SOURCE_CLI, ...args];
}
