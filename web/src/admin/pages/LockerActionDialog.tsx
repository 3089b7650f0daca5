import type { LiveLockerBooking } from '@deposito/protocol';
import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { formatEuro, formatInZone, STATUS_LABELS } from '../format';
import { ACTION_QUESTIONS, type CancelChoice, type LockerActionDialogState } from './useLockerActions';

/** The question before a locker action, then the live bookings it would cancel. */
export function LockerActionDialog({
  state,
  zone,
  busy,
  onConfirm,
  onCancel,
}: {
  state: LockerActionDialogState;
  /** The location's zone, for the bookings' times. */
  zone: string;
  busy: boolean;
  onConfirm: (choice?: CancelChoice) => void;
  onCancel: () => void;
}) {
  if (state.step === 'confirm') {
    const destructive = state.action.action === 'unbook-soap' || state.action.action === 'inhibit';
    return (
      <ConfirmDialog
        title={`${state.action.label} · locker ${state.lockerId}`}
        confirmLabel={state.action.label}
        tone={destructive ? 'danger' : 'primary'}
        busy={busy}
        onConfirm={() => onConfirm()}
        onCancel={onCancel}
      >
        <p>{ACTION_QUESTIONS[state.action.action](state.lockerId)}</p>
      </ConfirmDialog>
    );
  }
  // Keyed by the bookings shown: asked again about other bookings, the choices start afresh.
  return (
    <CancelBookingsDialog
      key={state.live.bookings.map((b) => b.transactionId).join(',')}
      title={`${state.action.label} · locker ${state.lockerId}`}
      actionLabel={state.action.label}
      bookings={state.live.bookings}
      zone={zone}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}

function CancelBookingsDialog({
  title,
  actionLabel,
  bookings,
  zone,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  actionLabel: string;
  bookings: LiveLockerBooking[];
  zone: string;
  busy: boolean;
  onConfirm: (choice: CancelChoice) => void;
  onCancel: () => void;
}) {
  const anyPaid = bookings.some((b) => b.paid);
  const [reason, setReason] = useState('');
  // Money taken is owed back unless the operator says otherwise.
  const [refund, setRefund] = useState(anyPaid);
  const one = bookings.length === 1;
  return (
    <ConfirmDialog
      title={title}
      confirmLabel={one ? 'Annulla prenotazione e procedi' : 'Annulla prenotazioni e procedi'}
      tone="danger"
      busy={busy}
      autoFocusConfirm={false}
      onConfirm={() => onConfirm({ reason, refund })}
      onCancel={onCancel}
    >
      <p>
        {one
          ? `Il locker ha una prenotazione attiva. «${actionLabel}» la annulla:`
          : `Il locker ha ${bookings.length} prenotazioni attive. «${actionLabel}» le annulla:`}
      </p>
      <ul className="adm-dialog-bookings">
        {bookings.map((booking) => (
          <li key={booking.transactionId} className="adm-dialog-booking">
            <code className="adm-dialog-tx">{booking.transactionId}</code>
            <dl>
              <dt>Stato</dt>
              <dd>{STATUS_LABELS[booking.status]}</dd>
              <dt>Pagato</dt>
              <dd>{booking.paid ? formatEuro(booking.paidCents / 100) : 'Non pagata'}</dd>
              <dt>Periodo</dt>
              <dd>
                {formatInZone(booking.startTimeIso, zone)} – {formatInZone(booking.endTimeIso, zone)}
              </dd>
              {booking.customerName ? (
                <>
                  <dt>Cliente</dt>
                  <dd>{booking.customerName}</dd>
                </>
              ) : null}
              <dt>Locker</dt>
              <dd>{booking.lockerNumbers.join(', ') || '–'}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <label className="adm-field">
        <span className="adm-field-label">Motivo</span>
        <textarea
          className="adm-input adm-dialog-reason"
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          placeholder="es. cliente ha rinunciato, locker guasto"
          autoFocus
        />
      </label>
      {anyPaid ? (
        <label className="adm-check">
          <input type="checkbox" checked={refund} onChange={(event) => setRefund(event.target.checked)} />
          Rimborso dovuto
        </label>
      ) : (
        <p className="adm-muted adm-small">Non pagata: nessun rimborso.</p>
      )}
    </ConfirmDialog>
  );
}
