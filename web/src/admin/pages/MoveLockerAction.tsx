import { adminRoutes } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAdminAction, type BookingActionProps } from '../query/use-admin-action';
import { Options } from '../../components/Options';

/**
 * "Cambia locker": a paid booking leaves one of its lockers (a jammed door, a locker out of order)
 * for another of the same size, for the rest of its stay. The server checks the new locker is free
 * then, records the move in the booking's history and sends the PIN to the new locker.
 */
export function MoveLockerAction({
  transactionId,
  lockers,
  sameSize,
  onDone,
}: BookingActionProps & {
  /** The booking's lockers. */
  lockers: readonly number[];
  /** Every locker of the booking's size at its location. */
  sameSize: readonly number[];
}) {
  const others = sameSize.filter((number) => !lockers.includes(number));
  const [from, setFrom] = useState(lockers[0]);
  const [to, setTo] = useState(others[0]);
  const [asking, setAsking] = useState(false);
  const move = useAdminAction(
    (body: { from: number; to: number }) =>
      adminCall(adminRoutes.moveBookingLocker, { params: { transactionId }, body }),
    { success: (answer) => ({ tone: 'success', text: answer.message }), failure: 'Locker non cambiato' },
    (message) => {
      setAsking(false);
      onDone(message);
    },
  );
  if (from === undefined || to === undefined) return null;

  return (
    <div className="adm-actions-inline" role="group" aria-label="Cambia locker">
      {lockers.length > 1 ? (
        <label className="adm-field adm-field-inline">
          <span className="adm-field-label">Da</span>
          <select className="adm-input" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
            <Options items={lockers} />
          </select>
        </label>
      ) : null}
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">Nuovo locker</span>
        <select className="adm-input" value={to} onChange={(e) => setTo(Number(e.target.value))}>
          <Options items={others} />
        </select>
      </label>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={() => setAsking(true)}>
        Cambia locker
      </button>
      {asking ? (
        <ConfirmDialog
          title={`Spostare la prenotazione dal locker ${from} al ${to}?`}
          confirmLabel="Cambia locker"
          busy={move.busy}
          onConfirm={() => void move.run({ from, to })}
          onCancel={() => setAsking(false)}
        >
          <p>
            Il PIN viene tolto dal locker {from} e programmato sul {to} per il resto della prenotazione. Se il
            cliente ha già depositato i bagagli nel {from}, aprilo prima per spostarli.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
