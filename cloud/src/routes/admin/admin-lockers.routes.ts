import { lockerRoutes } from '@deposito/protocol';
import { adminOf } from '../../auth/require-admin';
import type { LockerOperation } from '../../services/locker-control';
import { sendJson } from '../../json-answer';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminServices } from '../../app-context';

const ACTIONS = [
  [lockerRoutes.open, 'open', 'Apri'],
  [lockerRoutes.inhibit, 'inhibit', 'Disattiva'],
  [lockerRoutes.unbook, 'unbook', 'Attiva'],
  [lockerRoutes.unbookSoap, 'unbook-soap', 'Annulla prenotazione'],
] as const satisfies ReadonlyArray<readonly [unknown, LockerOperation, string]>;

const REFUND_WORDS = { refund_due: 'rimborso dovuto', cancelled_by_operator: 'senza rimborso' } as const;

/** Gestione Locker: the state of a location's lockers and the four operator actions. */
export function adminLockerEndpoints(admin: AdminServices): Endpoint[] {
  return [
    endpoint(lockerRoutes.fullState, ({ query }) => admin.lockerControl.fullState(query.location)),
    endpoint(lockerRoutes.lockerHistory, ({ query }) =>
      admin.lockerHistory.of(query.location, query.lockerId),
    ),
    ...ACTIONS.map(([route, operation, label]) =>
      endpoint(route, async ({ body }, _req, res) => {
        const actor = adminOf(res);
        const result = await admin.lockerActions.run(actor, {
          locationKey: body.location,
          lockerId: body.lockerId,
          operation,
          confirm: body.confirm,
          reason: body.reason,
          refund: body.refund,
        });
        const { cancelledBookings, ...outcome } = result;
        // Recorded after the operator's answer is written (the next turn of the event loop; a
        // synchronous store would otherwise write it first): the door has already opened, and a
        // failed write is logged by the activity log itself. Each cancellation is also recorded on
        // the booking itself (booking_events) in the step that made it.
        setImmediate(() => {
          const where = { locationKey: body.location, lockerId: body.lockerId };
          void admin.activity.record(
            actor,
            'admin/locker_command',
            `${label} locker ${body.lockerId}: ${outcome.outcome === 'queued' ? 'in coda' : 'eseguito'}`,
            where,
          );
          for (const booking of cancelledBookings) {
            const refund = REFUND_WORDS[booking.to as keyof typeof REFUND_WORDS] ?? booking.to;
            void admin.activity.record(
              actor,
              'admin/booking_cancelled',
              `${label} locker ${body.lockerId}: prenotazione ${booking.transactionId} annullata ` +
                `(${booking.from} → ${booking.to}, ${refund})` +
                (body.reason ? `. Motivo: ${body.reason}` : ''),
              where,
            );
          }
        });
        const answer = {
          success: true as const,
          ...outcome,
          ...(cancelledBookings.length > 0 && {
            cancelledBookings: cancelledBookings.map((b) => ({
              transactionId: b.transactionId,
              status: b.to,
            })),
          }),
        };
        // Accepted, not done yet: the bridge runs it when it is back.
        if (outcome.outcome !== 'queued') return answer;
        sendJson(res, 202, answer);
      }),
    ),
  ];
}
