import { lockerRoutes, type LockerHistoryEntry } from '@deposito/protocol';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminCall, errorText } from '../admin-api';
import { REASON_LABELS, STATUS_LABELS, formatInZone } from '../format';

const COMMAND_LABELS: Record<string, string> = {
  open: 'Apri',
  inhibit: 'Disattiva',
  unbook: 'Attiva',
  book: 'Programma PIN',
  getState: 'Lettura stato',
  history: 'Lettura storico',
};

const SOURCE_LABELS: Record<LockerHistoryEntry['source'], string> = {
  booking: 'Prenotazione',
  booking_event: 'Prenotazione',
  command: 'Comando',
  controller: 'Controller',
  operator: 'Operatore',
};

/** What the controller reported, in words: a door, a change of state, a technician's action. */
function controllerText(kind: string, payload: string): string {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return kind;
  }
  if (kind === 'door') return data.door === 'opened' ? 'Sportello aperto' : 'Sportello chiuso';
  if (kind === 'state-change') return `Stato: ${String(data.from)} → ${String(data.to)}`;
  return `${kind} ${payload}`;
}

/** One entry as an operator reads it. */
export function lockerHistoryText(entry: LockerHistoryEntry, zone: string): string {
  switch (entry.source) {
    case 'booking':
      return `${entry.transactionId} (${STATUS_LABELS[entry.status]}) dal ${formatInZone(entry.startAt, zone)} al ${formatInZone(entry.endAt, zone)}${entry.name ? `, ${entry.name}` : ''}`;
    case 'booking_event':
      return `${entry.transactionId}: ${STATUS_LABELS[entry.from]} → ${STATUS_LABELS[entry.to]}, ${REASON_LABELS[entry.reason] ?? entry.reason}${entry.detail ? ` (${entry.detail})` : ''}`;
    case 'command':
      return `${COMMAND_LABELS[entry.op] ?? entry.op}: ${entry.status}${entry.error ? ` (${entry.error})` : ''}`;
    case 'controller':
      return controllerText(entry.kind, entry.payload);
    case 'operator':
      return entry.message;
  }
}

/**
 * "Storico locker" in Gestione Locker (issue 17): everything that happened to the selected locker,
 * newest first, loaded when asked (bookings and their moves, commands, the controller's reports,
 * operators' actions).
 */
export function LockerHistory({
  location,
  lockerId,
  zone,
}: {
  location: string;
  lockerId: number;
  zone: string;
}) {
  /** The locker whose history the operator asked for: it is read only when asked. */
  const [askedFor, setAskedFor] = useState<string | null>(null);
  const key = `${location}:${lockerId}`;
  const asked = askedFor === key;
  const query = useQuery({
    queryKey: ['lockers', 'history', location, lockerId],
    queryFn: ({ signal }) => adminCall(lockerRoutes.lockerHistory, { query: { location, lockerId }, signal }),
    enabled: asked,
    // Asked again only when the operator asks ("Aggiorna storico").
    staleTime: Infinity,
  });
  const problem =
    asked && query.isError ? `Storico non caricato: ${errorText(query.error, 'errore sconosciuto')}` : null;
  const current = asked ? (query.data ?? null) : null;
  const load = () => (asked ? void query.refetch() : setAskedFor(key));

  return (
    <section className="adm-locker-history" aria-label={`Storico del locker ${lockerId}`}>
      <button type="button" className="adm-btn adm-btn-secondary" onClick={load}>
        {current ? 'Aggiorna storico' : 'Mostra storico'}
      </button>
      {problem ? (
        <p className="adm-token-error" role="alert">
          {problem}
        </p>
      ) : null}
      {current === null ? null : current.length === 0 ? (
        <p className="adm-muted">Nessun evento per questo locker.</p>
      ) : (
        <ol className="adm-history">
          {current.map((entry, index) => (
            <li key={`${entry.at}-${index}`}>
              <span className="adm-muted adm-small">
                {formatInZone(entry.at, zone)} · {SOURCE_LABELS[entry.source]}
              </span>{' '}
              {lockerHistoryText(entry, zone)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
