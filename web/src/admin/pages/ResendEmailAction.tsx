import { adminRoutes } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall } from '../admin-api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useAdminAction, type BookingActionProps } from '../query/use-admin-action';

/**
 * "Invia di nuovo la conferma": a visitor on the phone who lost the e-mail gets it again at the
 * booking's own address (never one the operator types): the confirmation with the PIN, or the
 * scheduled notice before the PIN's day. The server chooses which, and says so.
 */
export function ResendEmailAction({ transactionId, email, onDone }: BookingActionProps & { email: string }) {
  const [asking, setAsking] = useState(false);
  const resend = useAdminAction(
    () => adminCall(adminRoutes.resendBookingEmail, { params: { transactionId } }),
    { success: (answer) => ({ tone: 'success', text: answer.message }), failure: 'E-mail non inviata' },
    (message) => {
      setAsking(false);
      onDone(message);
    },
  );

  return (
    <>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={() => setAsking(true)}>
        Invia di nuovo la conferma
      </button>
      {asking ? (
        <ConfirmDialog
          title="Inviare di nuovo la conferma?"
          confirmLabel="Invia"
          busy={resend.busy}
          onConfirm={() => void resend.run(undefined)}
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
