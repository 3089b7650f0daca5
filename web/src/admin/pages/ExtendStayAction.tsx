import { adminRoutes, extendBookingRequestSchema } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAdminAction, type BookingActionProps } from '../query/use-admin-action';
import { formatInZone } from '../format';
import { Options } from '../../components/Options';

/** Why the server offers no longer stay, as the operators read it. */
const REFUSALS: Record<string, string> = {
  not_in_progress: 'solo una prenotazione pagata e in corso (confermata) si può prolungare',
  ended: 'la prenotazione è terminata',
  location_closes: 'dura già quanto è possibile (fine della giornata o durata massima)',
  locker_taken: 'il locker è prenotato da un altro cliente subito dopo la fine',
  amount_too_high: 'ogni durata più lunga costerebbe più di quanto si possa pagare online',
};

/**
 * "Prolunga": the operator gives the stay more time without charge (a fault on site, a goodwill
 * gesture), among the ends the server offers the visitor, with a reason kept in the history. The
 * server holds the same lockers, confirms it and sends the new end to the controller and the
 * visitor's e-mail. Visitors who want more time and pay for it do it from their booking page.
 */
export function ExtendStayAction({ transactionId, zone, onDone }: BookingActionProps & { zone: string }) {
  // The offer is read when the operator asks for it, through the shared client (read again after a change).
  const [wanted, setWanted] = useState(false);
  const read = useQuery({
    queryKey: ['bookings', 'extension', transactionId],
    queryFn: ({ signal }) => adminCall(adminRoutes.bookingExtension, { params: { transactionId }, signal }),
    enabled: wanted,
  });
  const offer = read.data;
  const [chosenEnd, setEndIso] = useState('');
  const endIso = chosenEnd || offer?.options[0]?.endIso || '';
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const extend = useAdminAction(
    (body: { endIso: string; reason: string }) =>
      adminCall(adminRoutes.extendBooking, { params: { transactionId }, body }),
    {
      success: (answer) => ({ tone: 'success', text: answer.message }),
      failure: 'Prenotazione non prolungata',
    },
    (message) => {
      setAsking(false);
      onDone(message);
    },
  );

  if (read.isError) {
    return (
      <span className="adm-muted">
        Prolungamento non disponibile: {errorText(read.error, 'errore sconosciuto')}
      </span>
    );
  }
  if (!offer) {
    return (
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        disabled={read.isFetching}
        onClick={() => setWanted(true)}
      >
        Prolunga senza addebito…
      </button>
    );
  }
  if (!offer.allowed) {
    return (
      <span className="adm-muted">
        Non si può prolungare: {REFUSALS[offer.refusal ?? ''] ?? offer.refusal}
      </span>
    );
  }
  // The request as the server will check it (a reason of a few words, an end it offered).
  const reasonOk = extendBookingRequestSchema.safeParse({ endIso, reason }).success;
  return (
    <div className="adm-actions-inline" role="group" aria-label="Prolunga">
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">Fino a</span>
        <select className="adm-input" value={endIso} onChange={(e) => setEndIso(e.target.value)}>
          <Options
            items={offer.options}
            value={(option) => option.endIso}
            label={(option) => formatInZone(option.endIso, zone)}
          />
        </select>
      </label>
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">Motivo</span>
        <input
          className="adm-input"
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.target.value)}
          placeholder="es. sportello bloccato"
        />
      </label>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        disabled={!reasonOk}
        onClick={() => setAsking(true)}
      >
        Prolunga
      </button>
      {asking ? (
        <ConfirmDialog
          title={`Prolungare fino a ${formatInZone(endIso, zone)} senza addebito?`}
          confirmLabel="Prolunga"
          busy={extend.busy}
          onConfirm={() => void extend.run({ endIso, reason: reason.trim() })}
          onCancel={() => setAsking(false)}
        >
          <p>
            Il cliente tiene lo stesso locker e lo stesso PIN fino alla nuova fine, senza pagare; riceve
            un&apos;e-mail. Il motivo resta nello storico della prenotazione.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
