import { locationRoutes } from '@deposito/protocol';
import type { RouteArea } from '../app-context';
import { adminOf } from '../auth/require-admin';
import { AppError } from '../errors';
import { endpoint } from '../routes/endpoint';
import { subscribeBookingCommands } from './booking-commands';
import { issueBridgeToken } from './bridge-token';

/**
 * The app's bridge hub (built with the other services in composition.ts) at work: the `/bridge`
 * WebSocket on the app's server, the PIN commands that follow booking events, its figures on
 * /metrics, the bridge-token calls, and the hub's heartbeat, sweep and PIN sync as jobs.
 */
export const bridgeHubArea: RouteArea = {
  name: 'bridge-hub',
  attach: (server, { services, metrics }) => {
    const { hub, pins } = services.bridgeHub;
    hub.attach(server);
    // The Prometheus gauges of bridges and commands read from this hub.
    metrics.useBridgeSource(hub);
    subscribeBookingCommands(pins);
  },
  // Upgraded bridge sockets never hang up by themselves: an app stopping without its jobs
  // (tests) must still close them, or closing the server would wait for ever.
  stop: ({ services }) => services.bridgeHub.hub.stop(),
  jobs: ({ jobs }) => [jobs.bridgeHub, jobs.pinSync],
  endpoints: ({ services, store, clock }) => {
    const { hub } = services.bridgeHub;
    const { activity } = services.admin;
    return [
      // A new token is shown once; the old one stops working and its connected bridge is closed.
      endpoint(locationRoutes.rotateBridgeToken, async ({ params }, _req, res) => {
        const token = await issueBridgeToken(store, params.key, clock.now());
        if (!token) throw new AppError('location/not_found', `No location '${params.key}'`);
        await hub.revokeBridge(params.key);
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
        if (!(await store.locations.get(params.key)))
          throw new AppError('location/not_found', `No location '${params.key}'`);
        const revoked = await store.bridge.removeToken(params.key);
        await hub.revokeBridge(params.key);
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
