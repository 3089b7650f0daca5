import { adminRoutes } from '@deposito/protocol';
import { adminCall } from '../admin-api';
import { useConfirm } from '../components/use-confirm';
import { useAdminAction, type BookingActionProps } from '../query/use-admin-action';

/**
 * A booking whose money is owed back (refund_due): ask the payment gateway again, or record a
 * refund the operator made outside it. The server moves the booking; the page reloads the list.
 */
export function RefundActions({ transactionId, onDone }: BookingActionProps) {
  const confirm = useConfirm();
  const action = useAdminAction(
    (byHand: boolean) =>
      adminCall(adminRoutes.refundBooking, { params: { transactionId }, body: { byHand } }),
    {
      success: (answer) => ({ tone: answer.success ? 'success' : 'error', text: answer.message }),
      failure: 'Rimborso non eseguito',
    },
    onDone,
  );

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
    await action.run(byHand);
  }

  return (
    <div className="adm-actions-inline" role="group" aria-label="Rimborso">
      {confirm.dialog}
      <button
        type="button"
        className="adm-btn adm-btn-primary"
        disabled={action.busy}
        onClick={() => void refund(false)}
      >
        Rimborsa con il gateway
      </button>
      <button
        type="button"
        className="adm-btn adm-btn-secondary"
        disabled={action.busy}
        onClick={() => void refund(true)}
      >
        Segna come rimborsata a mano
      </button>
    </div>
  );
}
