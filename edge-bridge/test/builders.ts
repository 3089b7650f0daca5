// Test data builders for the edge bridge.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bridgeConfigSchema, type BridgeConfig, type BridgeConfigInput } from '../src/env';

/** A valid config with a fresh data folder and fast timings; pass what the test cares about. */
export function buildBridgeConfig(overrides: Partial<BridgeConfigInput> = {}): BridgeConfig {
  return bridgeConfigSchema.parse({
    cloudUrl: 'http://127.0.0.1:9',
    locationKey: 'campo',
    bridgeToken: 'test-token',
    controller: {
      recipient: '127.0.0.1',
      port: 9,
      key: 'sim-key',
      mastercode: 'sim-master',
      timeoutMs: 2_000,
    },
    dataDir: mkdtempSync(join(tmpdir(), 'edge-bridge-')),
    http: { host: '127.0.0.1', port: 0 },
    pollIntervalMs: 100,
    snapshotIntervalMs: 60_000,
    reconcileWindowMs: 2_000,
    logLevel: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent',
    ...overrides,
  });
}
