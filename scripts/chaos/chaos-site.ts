// A locker site for the fault-injection suites: its SQLite store for the cloud process, and the box
// on the site (a controller simulator and a bridge daemon), each cleaned up by the suite's list.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import { buildBridgeConfig } from '@deposito/edge-bridge/test/builders';
import { prepareSiteStore } from './cloud-process';

/** What a suite runs after its test, last added first. */
export type Cleanups = Array<() => Promise<unknown> | unknown>;

/** A SQLite store in a directory of its own with the site, its lockers and a bridge token. */
export async function siteStore(
  site: { key: string; name: string; lockers: number },
  cleanups: Cleanups,
): Promise<{ filename: string; token: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'deposito-chaos-site-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const filename = path.join(dir, 'deposito.db');
  return { filename, token: await prepareSiteStore(filename, site) };
}

/**
 * A controller simulator and a bridge daemon for it, linking to the cloud at `url` as `locationKey`
 * with `token`, both started; `controllerTimeoutMs` is how long the bridge waits for the controller.
 */
export async function startSiteBox(
  options: {
    url: string;
    token: string;
    locationKey: string;
    lockers: number;
    doorOpenMs: number;
    controllerTimeoutMs?: number;
  },
  cleanups: Cleanups,
) {
  const simulator = new ControllerSimulator({ lockers: options.lockers, doorOpenMs: options.doorOpenMs });
  await simulator.start();
  cleanups.push(() => simulator.stop());
  const config = buildBridgeConfig({
    cloudUrl: options.url,
    bridgeToken: options.token,
    locationKey: options.locationKey,
    controller: simulator.connection(options.controllerTimeoutMs),
    pollIntervalMs: 500,
  });
  const daemon = new BridgeDaemon({ config });
  cleanups.push(() => rmSync(config.dataDir, { recursive: true, force: true }));
  cleanups.push(() => daemon.stop());
  await daemon.start();
  return { simulator, daemon, config };
}

/** An operator's "Apri" on `lockerId` of `locationKey`: the answer and how long it took. */
export async function openLocker(url: string, session: string, locationKey: string, lockerId: number) {
  const startedAt = Date.now();
  const answer = await fetch(`${url}/api/lockers/open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ location: locationKey, lockerId }),
  });
  const body = (await answer.json()) as { outcome?: string; error?: { code: string } };
  return { status: answer.status, body, ms: Date.now() - startedAt };
}
