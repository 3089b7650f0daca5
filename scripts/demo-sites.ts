// The demo's physical sites: for every seed location, a locker-controller simulator and a totem
// (Promotec) simulator behind the location's own controller address, and an edge bridge connected
// to the cloud with the location's random demo token (written by the cloud to DEMO_BRIDGE_TOKENS_DIR). Started by `npm start` once the cloud answers.
import { createServer, request, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { SEED_LOCATIONS } from '@deposito/protocol';
import { readDemoBridgeToken } from '@deposito/cloud/bridge-hub/bridge-token';
import { PromotecSimulator } from '@deposito/cloud/takings/promotec-simulator';
import { PROMOTEC_PROCEEDS_PATH } from '@deposito/cloud/takings/promotec-wire';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import { bridgeConfigSchema } from '@deposito/edge-bridge/env';

/**
 * Where the first of the six demo sites' ports may be (DEMO_SITE_PORT, DEMO_BRIDGE_STATUS_PORT): the
 * sites take it and the five after it (the cloud's env.ts bounds DEMO_SITE_PORT the same).
 */
export const DEMO_FIRST_PORTS = { min: 1, max: 65_530 };

export interface DemoSitesOptions {
  /** The cloud the bridges connect to; a function spreads them over several cloud processes. */
  cloudUrl: string | ((siteIndex: number) => string);
  dataDir: string;
  /** The folder the cloud wrote each location's random demo bridge token to (DEMO_BRIDGE_TOKENS_DIR). */
  tokensDir: string;
  /** First port of the bridges' local status servers (/healthz, /metrics), one per location. */
  bridgeHttpPort?: number;
  /**
   * First port of the sites (controller and totem), one per location in seed order, as the cloud
   * was told with DEMO_SITE_PORT; by default each seed location's own port (from 11000).
   */
  sitePort?: number;
  logLevel?: string;
  /** Told about a site whose bridge cannot start (no demo token for it). */
  warn?: (line: string) => void;
}

export interface DemoSite {
  locationKey: string;
  cloudUrl: string;
  controllerPort: number;
  bridgeHttpPort: number;
  controller: ControllerSimulator;
}

/**
 * A site answers both the locker controller and the totem system on one address, as the spec's
 * location carries a single recipient:port for both; this front sends /proceeds to the totem
 * simulator and everything else to the controller simulator.
 */
function siteFront(port: number, controllerPort: number, totemPort: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const target = path === PROMOTEC_PROCEEDS_PATH ? totemPort : controllerPort;
    const upstream = request(
      { host: '127.0.0.1', port: target, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

export async function startDemoSites(
  options: DemoSitesOptions,
): Promise<{ sites: DemoSite[]; stop(): Promise<void> }> {
  const logger = pino({ level: options.logLevel ?? 'warn' });
  const stops: Array<() => Promise<void>> = [];
  const sites: DemoSite[] = [];
  let httpPort = options.bridgeHttpPort ?? 8790;
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  // A site that cannot start (its port taken) stops the ones started before it, so nothing is left
  // listening and the caller can say why and exit.
  try {
    for (const [index, location] of SEED_LOCATIONS.entries()) {
      const bridgeToken = readDemoBridgeToken(options.tokensDir, location.key);
      if (!bridgeToken) {
        // The store has a token for the location this demo did not write (issued by an operator, or
        // the token folder was deleted): only its holder can connect a bridge.
        options.warn?.(
          `no demo bridge for ${location.key}: its token is not in ${options.tokensDir} ` +
            '(issue one with POST /api/admin/locations/<key>/bridge-token and write it to <key>.token)',
        );
        continue;
      }
      const lockers = [
        ...location.lockerStructure.standard.map((number) => ({ number, size: 'standard' as const })),
        ...location.lockerStructure.large.map((number) => ({ number, size: 'large' as const })),
      ];
      const controller = new ControllerSimulator({
        lockers,
        key: location.key,
        mastercode: location.mastercode,
      });
      const { port: controllerPort } = await controller.start();
      stops.push(() => controller.stop());
      const totem = await PromotecSimulator.start({ locationKey: location.key, zone: location.timezone });
      stops.push(() => totem.close());
      const sitePort = options.sitePort === undefined ? location.port : options.sitePort + index;
      const front = await siteFront(sitePort, controllerPort, totem.port);
      stops.push(
        () =>
          new Promise<void>((resolve) => {
            front.closeAllConnections();
            front.close(() => resolve());
          }),
      );

      const dataDir = join(options.dataDir, location.key);
      mkdirSync(dataDir, { recursive: true });
      const config = bridgeConfigSchema.parse({
        cloudUrl: typeof options.cloudUrl === 'function' ? options.cloudUrl(index) : options.cloudUrl,
        locationKey: location.key,
        bridgeToken,
        controller: {
          recipient: '127.0.0.1',
          port: sitePort,
          key: location.key,
          mastercode: location.mastercode,
        },
        dataDir,
        http: { host: '127.0.0.1', port: httpPort },
        pollIntervalMs: 2_000,
        logLevel: options.logLevel ?? 'warn',
      });
      const daemon = new BridgeDaemon({
        config,
        logger: logger.child({ bridge: location.key }),
        onLinkRefused: (reason) =>
          logger.error({ bridge: location.key, reason }, 'the cloud refused the bridge'),
      });
      await daemon.start();
      stops.push(() => daemon.stop());
      sites.push({
        locationKey: location.key,
        cloudUrl: config.cloudUrl,
        controllerPort: sitePort,
        bridgeHttpPort: httpPort,
        controller,
      });
      httpPort += 1;
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return { sites, stop: stopAll };
}
