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
