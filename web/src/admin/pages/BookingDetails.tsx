import { HANDED_OVER_BOOKING_STATUSES, type BookingRow } from '@deposito/protocol';
import { useState } from 'react';
import { STATUS_LABELS, formatEuro, formatInZone } from '../format';
import { BookingHistory } from './BookingHistory';
import { ExtendStayAction } from './ExtendStayAction';
import type { BookingGroup } from './booking-groups';
import { MoveLockerAction } from './MoveLockerAction';
import { RefundActions } from './RefundActions';
import { ResendEmailAction } from './ResendEmailAction';

/** Bookings whose e-mail an operator can send again (paid, not over; the server decides finally). */
const RESENDABLE: ReadonlySet<string> = new Set(['confirmed', 'confirmed_late', 'scheduled']);
/** Bookings whose locker an operator can change (paid, lockers assigned; the server checks the rest). */
const MOVABLE: ReadonlySet<string> = new Set(HANDED_OVER_BOOKING_STATUSES);

type Notice = { tone: 'success' | 'error'; text: string };

/**
 * A booking's details in Prenotazioni: what it is, its history, and what an operator can do with it
 * (change its locker, give it more time, send its confirmation again, finish a refund owed).
 */
export function BookingDetails({
  group,
  lockers,
  zone,
  sameSize,
  onNotice,
  onChanged,
}: {
  group: BookingGroup;
  /** Its lockers' numbers. */
  lockers: number[];
  zone: string;
  /** Every locker of its size at its location (where it may move). */
  sameSize: readonly number[];
  /** A message for the page, nothing changed in the list. */
  onNotice: (message: Notice) => void;
  /** The booking changed: the page says so and reads the list again. */
  onChanged: (message: Notice) => void;
}) {
  const row: BookingRow = group.first;
  // Changes that leave the row as it was (an extension is a booking of its own) still renew the
  // history and the actions' offers.
  const [changes, setChanges] = useState(0);
  const changed = (message: Notice) => {
    setChanges((count) => count + 1);
    onChanged(message);
  };
  return (
    <dl className="adm-details">
      <dt>Stato</dt>
      <dd>
        {STATUS_LABELS[row.STATUS]} ({row.STATUS})
        {row.is_test ? ' · prenotazione di test, esclusa dagli incassi' : ''}
      </dd>
      <dt>Locker</dt>
      <dd>{lockers.length > 0 ? lockers.join(', ') : 'non assegnati'}</dd>
      <dt>Quantità</dt>
      <dd>
        {group.rows.length} x {row.locker_type}
      </dd>
      <dt>Cliente</dt>
      <dd>
        {[row.nome, row.cognome].filter(Boolean).join(' ') || 'n.d.'} · {row.email ?? 'n.d.'}
      </dd>
      <dt>Periodo</dt>
      <dd>
        {formatInZone(row.START_TIME, zone)} → {formatInZone(row.END_TIME, zone)}
      </dd>
      <dt>Creata</dt>
      <dd>{formatInZone(row.created_at, zone)}</dd>
      <dt>Prezzo</dt>
      <dd>
        {formatEuro(row.price_original)} → {formatEuro(row.price_discounted)}
      </dd>
      <dt>PIN</dt>
      <dd className="adm-mono">{row.PIN ?? 'n.d.'}</dd>
      <dt>Telefono</dt>
      <dd>
        {row.telefono_prefisso ?? ''} {row.telefono_numero ?? 'n.d.'}
      </dd>
      <dt>Note</dt>
      <dd className="adm-mono">{row.note || '–'}</dd>
      <dt>Storico</dt>
      <dd>
        <BookingHistory
          // Read again when the booking changed (moved, refunded…).
          key={`${row.STATUS}:${lockers.join(',')}:${changes}`}
          transactionId={group.transactionId}
          zone={zone}
        />
      </dd>
      {MOVABLE.has(row.STATUS) && lockers.length > 0 ? (
        <>
          <dt>Cambia locker</dt>
          <dd>
            <MoveLockerAction
              transactionId={group.transactionId}
              lockers={lockers}
              sameSize={sameSize}
              onDone={onChanged}
            />
          </dd>
        </>
      ) : null}
      {MOVABLE.has(row.STATUS) && lockers.length > 0 ? (
        <>
          <dt>Prolunga</dt>
          <dd>
            <ExtendStayAction
              key={changes}
              transactionId={group.transactionId}
              zone={zone}
              onDone={changed}
            />
          </dd>
        </>
      ) : null}
      {row.email && RESENDABLE.has(row.STATUS) ? (
        <>
          <dt>E-mail</dt>
          <dd>
            <ResendEmailAction transactionId={group.transactionId} email={row.email} onDone={onNotice} />
          </dd>
        </>
      ) : null}
      {row.STATUS === 'refund_due' ? (
        <>
          <dt>Rimborso</dt>
          <dd>
            <RefundActions transactionId={group.transactionId} onDone={onChanged} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}
