import { adminRoutes } from '@deposito/protocol';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { useConfirm } from '../components/use-confirm';

/**
 * A booking whose money is owed back (refund_due): ask the payment gateway again, or record a
 * refund the operator made outside it. The server moves the booking; the page reloads the list.
 */
export function RefundActions({
  transactionId,
  onDone,
}: {
  transactionId: string;
  onDone: (message: { tone: 'success' | 'error'; text: string }) => void;
}) {
  const confirm = useConfirm();
  const [busy, setBusy] = useState(false);

  async function refund(byHand: boolean) {
    if (
      byHand &&
      !(await confirm.ask({
        title: 'Rimborso fatto a mano?',
        text: `Registrare il rimborso della prenotazione ${transactionId} come fatto a mano (fuori dal gateway)?`,
        confirmLabel: 'Registra rimborso',
        tone: 'primary',
      }))
    )
      return;
    setBusy(true);
    try {
      const answer = await adminCall(adminRoutes.refundBooking, {
        params: { transactionId },
        body: { byHand },
      });
      onDone({ tone: answer.success ? 'success' : 'error', text: answer.message });
    } catch (error) {
      onDone({ tone: 'error', text: `Rimborso non eseguito: ${errorText(error, 'errore sconosciuto')}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="adm-actions-inline" role="group" aria-label="Rimborso">
      {confirm.dialog}
      <button
        type="button"
        className="adm-btn adm-btn-primary"
        disabled={busy}
        onClick={() => void refund(false)}
      >
        Rimborsa con il gateway
      </button>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        disabled={busy}
        onClick={() => void refund(true)}
      >
        Segna come rimborsata a mano
      </button>
    </div>
  );
}
