import { lockerRoutes } from '@deposito/protocol';
import { adminOf } from '../../auth/require-admin';
import type { LockerOperation } from '../../services/locker-control';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminModule } from './admin-module';

const ACTIONS = [
  [lockerRoutes.open, 'open', 'Apri'],
  [lockerRoutes.inhibit, 'inhibit', 'Disattiva'],
  [lockerRoutes.unbook, 'unbook', 'Attiva'],
  [lockerRoutes.unbookSoap, 'unbook-soap', 'Annulla prenotazione'],
] as const satisfies ReadonlyArray<readonly [unknown, LockerOperation, string]>;

/** Gestione Locker: the state of a location's lockers and the four operator actions. */
export function adminLockerEndpoints(admin: AdminModule): Endpoint[] {
  return [
    endpoint(lockerRoutes.fullState, ({ query }) => admin.lockerControl.fullState(query.location)),
    ...ACTIONS.map(([route, operation, label]) =>
      endpoint(route, async ({ body }, _req, res) => {
        const actor = adminOf(res);
        const outcome = await admin.lockerControl.command(body.location, body.lockerId, operation);
        // Recorded after the operator's answer is written (the next turn of the event loop; a
        // synchronous store would otherwise write it first): the door has already opened, and a
        // failed write is logged by the activity log itself.
        setImmediate(() => {
          void admin.activity.record(
            actor,
            'admin/locker_command',
            `${label} locker ${body.lockerId}: ${outcome.outcome === 'queued' ? 'in coda' : 'eseguito'}`,
            { locationKey: body.location, lockerId: body.lockerId },
          );
        });
        const answer = { success: true as const, ...outcome };
        // Accepted, not done yet: the bridge runs it when it is back.
        if (outcome.outcome !== 'queued') return answer;
        res.status(202).json(answer);
      }),
    ),
  ];
}
