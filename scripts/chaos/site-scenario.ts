// One site as the fault-injection scenarios set it up: its own database with the site, its lockers
// and a bridge token; the cloud process on it; the site's controller simulator and a bridge for it.
// Each piece is undone after the test, last started first, whatever the test did.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import type { BridgeConfig, BridgeConfigInput } from '@deposito/edge-bridge/env';
import { buildBridgeConfig } from '@deposito/edge-bridge/test/builders';
import type { StoreDialect } from '@deposito/cloud/test/test-store';
import {
  freePort,
  kill9,
  operatorOpen,
  prepareSiteStore,
  scenarioDatabase,
  startSiteCloud,
  type ScenarioDatabase,
} from './cloud-process';
import { adminSession } from '../support/admin-session';

/** The first administrator of every scenario's cloud. */
export const CHAOS_ADMIN = { email: 'ops@deposito.test', password: 'chaos-admin-password' };

export class SiteScenario {
  private readonly cleanups: Array<() => Promise<unknown> | unknown> = [];

  constructor(readonly site: { key: string; name: string; lockers: number }) {
    afterEach(async () => {
      for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup();
    });
  }

  /** Runs `cleanup` after the current test, before what was started earlier is undone. */
  defer(cleanup: () => Promise<unknown> | unknown): void {
    this.cleanups.push(cleanup);
  }

  /** A fresh database of `dialect` holding the site and its lockers; the site's bridge token. */
  async database(dialect: StoreDialect): Promise<{ database: ScenarioDatabase; token: string }> {
    const database = await scenarioDatabase(dialect);
    this.defer(() => database.dispose());
    return { database, token: await prepareSiteStore(database.url, this.site) };
  }

  /** The cloud process on `databaseUrl` (on a free port unless given), killed after the test. */
  async cloud(databaseUrl: string, port?: number): Promise<{ url: string; child: ChildProcess }> {
    const cloud = await startSiteCloud(databaseUrl, port ?? (await freePort()), CHAOS_ADMIN);
    this.defer(() => kill9(cloud.child));
    return cloud;
  }

  /** The site's controller simulator, running, with a door that takes `doorOpenMs` to open. */
  async controller(doorOpenMs: number): Promise<ControllerSimulator> {
    const simulator = new ControllerSimulator({ lockers: this.site.lockers, doorOpenMs });
    await simulator.start();
    this.defer(() => simulator.stop());
    return simulator;
  }

  /** A bridge's settings for the site on the cloud at `cloudUrl`, with a data folder of its own. */
  bridgeConfig(cloudUrl: string, bridgeToken: string, overrides: Partial<BridgeConfigInput>): BridgeConfig {
    const config = buildBridgeConfig({
      cloudUrl,
      bridgeToken,
      locationKey: this.site.key,
      pollIntervalMs: 500,
      ...overrides,
    });
    this.defer(() => rmSync(config.dataDir, { recursive: true, force: true }));
    return config;
  }

  /** A bridge daemon in this process on `config`, started. */
  async daemon(config: BridgeConfig): Promise<BridgeDaemon> {
    const daemon = new BridgeDaemon({ config });
    this.defer(() => daemon.stop());
    await daemon.start();
    return daemon;
  }

  /** A session of CHAOS_ADMIN on the cloud at `url`. */
  session(url: string): Promise<string> {
    return adminSession(url, CHAOS_ADMIN);
  }

  /** An operator's Apri of `lockerId` at the site. */
  open(url: string, session: string, lockerId: number): ReturnType<typeof operatorOpen> {
    return operatorOpen(url, session, this.site.key, lockerId);
  }
}
