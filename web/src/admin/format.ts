import { DateTime } from 'luxon';
import type { BookingStatus, LockerStatus } from '@deposito/protocol';

/** dd/MM/yyyy HH:mm in the location's zone, or "Data non valida". */
export function formatInZone(iso: string | null | undefined, zone: string): string {
  if (!iso) return 'Data non valida';
  const time = DateTime.fromISO(iso, { setZone: true }).setZone(zone || 'Europe/Rome');
  return time.isValid ? time.toFormat('dd/MM/yyyy HH:mm') : 'Data non valida';
}

export function formatEuro(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n.d.';
  return `€ ${value.toFixed(2).replace('.', ',')}`;
}

export const STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'In attesa',
  scheduled: 'Programmata',
  confirmed: 'Confermata',
  cancelled: 'Annullata',
  expired: 'Scaduta',
  confirmed_late: 'Confermata in ritardo',
  failed_after_payment: 'Fallita dopo pagamento',
  paying: 'Pagamento in corso',
  payment_declined: 'Pagamento rifiutato',
  cancelled_by_operator: "Annullata dall'operatore",
  refund_due: 'Da rimborsare',
  refunded: 'Rimborsata',
};

/** Why a booking moved, as the operators read it (the reasons protocol's state machine records). */
export const REASON_LABELS: Record<string, string> = {
  payment_opened: 'pagamento avviato',
  payment_declined: 'pagamento rifiutato',
  payment_cancelled_by_buyer: 'pagamento abbandonato dal cliente',
  paid: 'pagata',
  paid_late: 'pagata dopo la scadenza',
  paid_no_lockers: 'pagata senza locker liberi',
  amount_mismatch: 'importo pagato diverso dal totale',
  visitor_cancelled: 'annullata dal cliente',
  hold_lapsed: 'tempo per pagare scaduto',
  morning_of_stay: 'mattina del giorno: PIN assegnato',
  operator_cancelled: "annullata dall'operatore",
  operator_freed_locker: "locker liberato dall'operatore",
  operator_moved_locker: "locker cambiato dall'operatore",
  operator_extended: "prolungata dall'operatore senza addebito",
  operator_refund: "rimborso disposto dall'operatore",
  refund_made: 'rimborso eseguito',
  test_booking: 'prenotazione di test',
};

/** Icons of admin spec §4: expired red cross, confirmed green check, scheduled yellow clock, pending blue hourglass. */
export type StatusIconKind = 'cross' | 'check' | 'clock' | 'hourglass' | 'dot';

export function statusIcon(status: string): {
  icon: StatusIconKind;
  tone: 'red' | 'green' | 'yellow' | 'blue' | 'grey';
} {
  switch (status) {
    case 'expired':
      return { icon: 'cross', tone: 'red' };
    case 'confirmed':
      return { icon: 'check', tone: 'green' };
    case 'scheduled':
      return { icon: 'clock', tone: 'yellow' };
    case 'pending':
      return { icon: 'hourglass', tone: 'blue' };
    default:
      return { icon: 'dot', tone: 'grey' };
  }
}

/** Locker colours of admin spec §4. */
export function lockerTone(status: LockerStatus | string): 'free' | 'busy' | 'inhibited' | 'unknown' {
  if (status === 'available') return 'free';
  if (status === 'occupied') return 'busy';
  if (status === 'inhibited' || status === 'blocked' || status === 'maintenance') return 'inhibited';
  return 'unknown';
}

export function lockerLabel(status: LockerStatus | string, online?: boolean): string {
  switch (status) {
    case 'available':
      return 'Disponibile';
    case 'occupied':
      return online ? 'Occupato (online)' : 'Occupato';
    case 'inhibited':
      return 'Inibito';
    case 'blocked':
      return 'Bloccato';
    case 'maintenance':
      return 'Manutenzione';
    default:
      return 'Sconosciuto';
  }
}
