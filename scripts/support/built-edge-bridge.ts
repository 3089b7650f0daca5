// Vitest global set-up: builds the edge bridge once for the run, as a site box gets it, and names it
// to the tests that start `edge-bridge` processes (`@deposito/cloud/test/edge-bridge-cli`). In watch
// mode it builds again before each rerun, so a change to the bridge's sources is what runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { BUILT_EDGE_BRIDGE_ENV } from '@deposito/cloud/test/edge-bridge-cli';
import { BUNDLE_FILE, buildBridge } from '../package-bridge/build-bridge';

export default async function buildEdgeBridgeForTests(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deposito-test-edge-bridge-'));
  const build = async () => {
    const built = await buildBridge(path.join(dir, 'lib'));
    process.env[BUILT_EDGE_BRIDGE_ENV] = path.join(built.dir, BUNDLE_FILE);
  };
  await build();
  project.onTestsRerun(build);
  return () => rmSync(dir, { recursive: true, force: true });
}
