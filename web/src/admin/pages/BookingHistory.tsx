import { adminRoutes, type BookingHistoryEntry } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { adminCall, errorText } from '../admin-api';
import { REASON_LABELS, STATUS_LABELS, formatInZone } from '../format';

const ACTOR_LABELS: Record<BookingHistoryEntry['actor'], string> = {
  visitor: 'cliente',
  provider: 'gateway di pagamento',
  operator: 'operatore',
  scheduler: 'pianificatore',
  system: 'sistema',
};

/**
 * A booking's history in its details: every move of its status (payments, cancellations, refunds)
 * with who made it and why, read when the details open.
 */
export function BookingHistory({ transactionId, zone }: { transactionId: string; zone: string }) {
  // Under ['bookings']: an action on the booking refreshes its history with the list.
  const query = useQuery({
    queryKey: ['bookings', 'history', transactionId],
    queryFn: ({ signal }) => adminCall(adminRoutes.bookingHistory, { params: { transactionId }, signal }),
  });
  const entries = query.data;
  const problem = query.isError ? `Storico non disponibile: ${errorText(query.error, 'errore')}` : null;

  if (problem) return <span className="adm-muted">{problem}</span>;
  if (!entries) return <span className="adm-muted">Caricamento…</span>;
  if (entries.length === 0) return <span className="adm-muted">Nessun cambio di stato registrato</span>;
  return (
    <ol className="adm-history" aria-label="Storico della prenotazione">
      {entries.map((entry, index) => (
        <li key={index}>
          <span className="adm-nowrap">{formatInZone(entry.at, zone)}</span> · {STATUS_LABELS[entry.from]} →{' '}
          <strong>{STATUS_LABELS[entry.to]}</strong> · {ACTOR_LABELS[entry.actor]},{' '}
          {REASON_LABELS[entry.reason] ?? entry.reason}
          {entry.detail ? <span className="adm-muted"> ({entry.detail})</span> : null}
        </li>
      ))}
    </ol>
  );
}
