import { locationRoutes } from '@deposito/protocol';
import type { AppContext, RouteArea } from '../app-context';
import { adminOf } from '../auth/require-admin';
import { AppError } from '../errors';
import { intervalJob } from '../jobs/interval-job';
import { endpoint } from '../routes/endpoint';
import { AdminActivityLog } from '../services/admin-activity.service';
import type { LockerControl } from '../services/locker-control';
import {
  PIN_SYNC_INTERVAL_MS,
  subscribeBookingCommands,
  syncAllPins,
  type BookingCommandsDeps,
} from './booking-commands';
import { BridgeHub, type BridgeHubOptions } from './bridge-hub';
import { issueBridgeToken } from './bridge-token';
import { HubLockerControl } from './hub-locker-control';

/** What tests and deployments may tune; the rest comes from the app's context. */
export type BridgeHubAreaOptions = Omit<BridgeHubOptions, 'store' | 'logger' | 'database' | 'clock'> & {
  /** How long a locker action waits for the controller before answering. */
  answerWithinMs?: number;
  /** How often the lockers are checked for a booking whose PIN's turn has come. */
  pinSyncIntervalMs?: number;
};

export interface BridgeHubModule {
  hub: BridgeHub;
  lockerControl: LockerControl;
  /** What the PIN commands need; `syncAllPins(pins)` is the periodic pass. */
  pins: BookingCommandsDeps;
}

/** The hub's route area, plus access to each app's hub (the admin area's locker control uses it). */
export interface BridgeHubArea extends RouteArea {
  moduleFor(context: AppContext): BridgeHubModule;
  /** Gestione Locker through this app's hub: pass to the admin area as its `lockerControl`. */
  lockerControl(context: AppContext): LockerControl;
}

/**
 * The bridge hub of each app: the `/bridge` WebSocket on the app's server, the PIN commands that
 * follow booking events, the bridge-token rotation call, and the hub's heartbeat and sweep as a job.
 */
export function createBridgeHubArea(options: BridgeHubAreaOptions = {}): BridgeHubArea {
  const modules = new WeakMap<AppContext, BridgeHubModule>();
  const moduleFor = (context: AppContext): BridgeHubModule => {
    let module = modules.get(context);
    if (!module) {
      const { answerWithinMs, pinSyncIntervalMs: _interval, ...hubOptions } = options;
      const { store, clock, logger, events, env } = context;
      const hub = new BridgeHub({ ...hubOptions, store, clock, logger, database: env.database });
      // The Prometheus gauges of bridges and commands read from this hub.
      context.metrics.useBridgeSource(hub);
      const pins = { hub, store, events, clock, logger: logger.child({ component: 'bridge-hub' }) };
      subscribeBookingCommands(pins);
      module = { hub, lockerControl: new HubLockerControl(hub, store, clock, answerWithinMs), pins };
      modules.set(context, module);
    }
    return module;
  };

  return {
    name: 'bridge-hub',
    moduleFor,
    lockerControl: (context) => moduleFor(context).lockerControl,
    attach: (server, context) => moduleFor(context).hub.attach(server),
    // Upgraded bridge sockets never hang up by themselves: an app stopping without its jobs
    // (tests) must still close them, or closing the server would wait for ever.
    stop: (context) => moduleFor(context).hub.stop(),
    jobs: (context) => {
      const { hub, pins } = moduleFor(context);
      return [
        {
          start: () =>
            void hub
              .start()
              .catch((error: unknown) => context.logger.error({ err: error }, 'bridge hub failed to start')),
          stop: () => hub.stop(),
        },
        // Bookings whose turn on a locker came with time (the one before them ended).
        intervalJob({
          intervalMs: options.pinSyncIntervalMs ?? PIN_SYNC_INTERVAL_MS,
          pass: () => syncAllPins(pins),
          logger: context.logger,
          failure: 'PIN sync failed',
        }),
      ];
    },
    endpoints: (context) => {
      const activity = new AdminActivityLog(context.store, context.clock, context.logger);
      return [
        // A new token is shown once; the old one stops working and its connected bridge is closed.
        endpoint(locationRoutes.rotateBridgeToken, async ({ params }, _req, res) => {
          const token = await issueBridgeToken(context.store, params.key, context.clock.now());
          if (!token) throw new AppError('location/not_found', `No location '${params.key}'`);
          await moduleFor(context).hub.revokeBridge(params.key);
          await activity.record(
            adminOf(res),
            'admin/bridge_token_issued',
            `Nuovo token del bridge di ${params.key}: il precedente è revocato`,
            { locationKey: params.key },
          );
          return { token };
        }),
        // A lost or stolen site box: its token stops working and no other is issued until asked.
        endpoint(locationRoutes.revokeBridgeToken, async ({ params }, _req, res) => {
          if (!(await context.store.locations.get(params.key)))
            throw new AppError('location/not_found', `No location '${params.key}'`);
          const revoked = await context.store.bridge.removeToken(params.key);
          await moduleFor(context).hub.revokeBridge(params.key);
          if (revoked)
            await activity.record(
              adminOf(res),
              'admin/bridge_token_revoked',
              `Token del bridge di ${params.key} revocato: il bridge non può collegarsi finché non se ne emette uno nuovo`,
              { locationKey: params.key },
            );
          return { revoked };
        }),
      ];
    },
  };
}

export const bridgeHubArea = createBridgeHubArea();
