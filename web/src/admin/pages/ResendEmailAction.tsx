import { adminRoutes } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';

/**
 * "Invia di nuovo la conferma": a visitor on the phone who lost the e-mail gets it again at the
 * booking's own address (never one the operator types): the confirmation with the PIN, or the
 * scheduled notice before the PIN's day. The server chooses which, and says so.
 */
export function ResendEmailAction({
  transactionId,
  email,
  onDone,
}: {
  transactionId: string;
  email: string;
  onDone: (message: { tone: 'success' | 'error'; text: string }) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);

  async function resend() {
    setBusy(true);
    try {
      const answer = await adminCall(adminRoutes.resendBookingEmail, { params: { transactionId } });
      onDone({ tone: 'success', text: answer.message });
    } catch (error) {
      onDone({ tone: 'error', text: `E-mail non inviata: ${errorText(error, 'errore sconosciuto')}` });
    } finally {
      setBusy(false);
      setAsking(false);
    }
  }

  return (
    <>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={() => setAsking(true)}>
        Invia di nuovo la conferma
      </button>
      {asking ? (
        <ConfirmDialog
          title="Inviare di nuovo la conferma?"
          confirmLabel="Invia"
          busy={busy}
          onConfirm={() => void resend()}
          onCancel={() => setAsking(false)}
        >
          <p>
            La conferma della prenotazione {transactionId} (con il PIN, se è già assegnato) parte di nuovo
            verso <strong>{email}</strong>, con un nuovo link alla pagina della prenotazione.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
