// Vitest global set-up: builds the edge bridge once for the run, as a site box gets it, and names it
// to the tests that start `edge-bridge` processes (`@deposito/cloud/test/edge-bridge-cli`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUILT_EDGE_BRIDGE_ENV } from '@deposito/cloud/test/edge-bridge-cli';
import { BUNDLE_FILE, buildBridge } from '../package-bridge/build-bridge';

export default async function buildEdgeBridgeForTests(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deposito-test-edge-bridge-'));
  const built = await buildBridge(path.join(dir, 'lib'));
  process.env[BUILT_EDGE_BRIDGE_ENV] = path.join(built.dir, BUNDLE_FILE);
  return () => rmSync(dir, { recursive: true, force: true });
}
