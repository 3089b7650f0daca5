import { adminRoutes, type ExtensionOfferResponse } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { formatInZone } from '../format';

/** Why the server offers no longer stay, as the operators read it. */
const REFUSALS: Record<string, string> = {
  not_in_progress: 'solo una prenotazione pagata e in corso (confermata) si può prolungare',
  ended: 'la prenotazione è terminata',
  location_closes: 'dura già quanto è possibile (fine della giornata o durata massima)',
  locker_taken: 'il locker è prenotato da un altro cliente subito dopo la fine',
};

/**
 * "Prolunga": the operator gives the stay more time without charge (a fault on site, a goodwill
 * gesture), among the ends the server offers the visitor, with a reason kept in the history. The
 * server holds the same lockers, confirms it and sends the new end to the controller and the
 * visitor's e-mail. Visitors who want more time and pay for it do it from their booking page.
 */
export function ExtendStayAction({
  transactionId,
  zone,
  onDone,
}: {
  transactionId: string;
  zone: string;
  onDone: (message: { tone: 'success' | 'error'; text: string }) => void;
}) {
  const [offer, setOffer] = useState<ExtensionOfferResponse | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [endIso, setEndIso] = useState('');
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function load() {
    setProblem(null);
    try {
      const answer = await adminCall(adminRoutes.bookingExtension, { params: { transactionId } });
      setOffer(answer);
      setEndIso(answer.options[0]?.endIso ?? '');
    } catch (error) {
      setProblem(`Prolungamento non disponibile: ${errorText(error, 'errore sconosciuto')}`);
    }
  }

  async function extend() {
    setBusy(true);
    try {
      const answer = await adminCall(adminRoutes.extendBooking, {
        params: { transactionId },
        body: { endIso, reason: reason.trim() },
      });
      onDone({ tone: 'success', text: answer.message });
    } catch (error) {
      onDone({
        tone: 'error',
        text: `Prenotazione non prolungata: ${errorText(error, 'errore sconosciuto')}`,
      });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  if (problem) return <span className="adm-muted">{problem}</span>;
  if (!offer) {
    return (
      <button type="button" className="adm-btn adm-btn-secondary" onClick={() => void load()}>
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
  const reasonOk = reason.trim().length >= 3;
  return (
    <div className="adm-actions-inline" role="group" aria-label="Prolunga">
      <label className="adm-field adm-field-inline">
        <span className="adm-field-label">Fino a</span>
        <select className="adm-input" value={endIso} onChange={(e) => setEndIso(e.target.value)}>
          {offer.options.map((option) => (
            <option key={option.endIso} value={option.endIso}>
              {formatInZone(option.endIso, zone)}
            </option>
          ))}
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
          busy={busy}
          onConfirm={() => void extend()}
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
