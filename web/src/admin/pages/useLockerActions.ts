import {
  lockerActionResponseSchema,
  lockerBookingLiveDetailsSchema,
  lockerRoutes,
  type LockerBookingLiveDetails,
} from '@deposito/protocol';
import { useState } from 'react';
import { adminCall, errorText, isApiErrorWithCode } from '../admin-api';
import type { NoticeMessage } from '../components/ui';
import { STATUS_LABELS } from '../format';

/** Locker calls give up after 5 s (admin spec §9). */
export const LOCKER_TIMEOUT_MS = 5_000;

export const LOCKER_ACTIONS = [
  { route: lockerRoutes.open, action: 'open', label: 'Apri', className: 'adm-btn-primary' },
  { route: lockerRoutes.inhibit, action: 'inhibit', label: 'Disattiva', className: 'adm-btn-secondary' },
  { route: lockerRoutes.unbook, action: 'unbook', label: 'Attiva', className: 'adm-btn-secondary' },
  {
    route: lockerRoutes.unbookSoap,
    action: 'unbook-soap',
    label: 'Annulla prenotazione',
    className: 'adm-btn-danger',
  },
] as const;
export type LockerAction = (typeof LOCKER_ACTIONS)[number];

/** What each action asks before it runs (the last one is admin spec §4's own words). */
export const ACTION_QUESTIONS: Record<LockerAction['action'], (lockerId: number) => string> = {
  open: (id) => `Aprire il locker ${id}? La porta si apre subito.`,
  inhibit: (id) => `Disattivare il locker ${id}? Non sarà più venduto online finché non viene riattivato.`,
  unbook: (id) => `Attivare il locker ${id}? Torna libero sul controller e in vendita online.`,
  'unbook-soap': (id) => `Sei sicuro di voler annullare la prenotazione del locker ${id}?`,
};

/**
 * The open dialog: first the plain question; then, when the server answers that the action would
 * cancel live bookings (409 `locker/booking_live`), those bookings with a reason and a refund choice.
 */
export type LockerActionDialogState =
  | { step: 'confirm'; action: LockerAction; lockerId: number }
  | { step: 'bookings'; action: LockerAction; lockerId: number; live: LockerBookingLiveDetails };

/** What the operator decided about the live bookings. */
export interface CancelChoice {
  reason: string;
  refund: boolean;
}

/**
 * Gestione Locker's actions: a question first, the call, the bookings question when the server
 * asks it, and the page's message after. `reload` runs after every call that was answered.
 */
export function useLockerActions(
  locationKey: string,
  reload: (key: string) => Promise<void>,
  setMessage: (message: NoticeMessage | null) => void,
) {
  const [dialog, setDialog] = useState<LockerActionDialogState | null>(null);
  const [busy, setBusy] = useState(false);

  function ask(action: LockerAction, lockerId: number | null) {
    if (!locationKey) {
      setMessage({ tone: 'warning', text: 'Seleziona una location' });
      return;
    }
    if (lockerId === null) {
      setMessage({ tone: 'warning', text: 'Seleziona un locker' });
      return;
    }
    setMessage(null);
    setDialog({ step: 'confirm', action, lockerId });
  }

  async function confirm(choice?: CancelChoice) {
    if (!dialog) return;
    const { action, lockerId } = dialog;
    const anyPaid = dialog.step === 'bookings' && dialog.live.bookings.some((b) => b.paid);
    const body = {
      location: locationKey,
      lockerId,
      ...(dialog.step === 'bookings' && {
        confirm: true,
        ...(choice?.reason.trim() && { reason: choice.reason.trim() }),
        // Only a paid booking has money to owe back; left out, the server owes it if one was paid meanwhile.
        ...(anyPaid && { refund: choice?.refund ?? true }),
      }),
    };
    setBusy(true);
    setMessage(null);
    try {
      // An operator's call always gets the operator's answer (the route's other one is a visitor's hold).
      const result = lockerActionResponseSchema.parse(
        await adminCall(action.route, { body, timeoutMs: LOCKER_TIMEOUT_MS }),
      );
      const cancelled = (result.cancelledBookings ?? [])
        .map((b) => `prenotazione ${b.transactionId} annullata (${STATUS_LABELS[b.status]})`)
        .join(', ');
      setMessage({
        tone: 'success',
        text:
          (result.outcome === 'queued'
            ? `${action.label}: comando in coda per il locker ${lockerId}, partirà quando la sede si ricollega`
            : `${action.label}: comando eseguito sul locker ${lockerId}`) +
          (cancelled ? `; ${cancelled}` : ''),
      });
      setDialog(null);
    } catch (error) {
      const live = isApiErrorWithCode(error, 'locker/booking_live')
        ? lockerBookingLiveDetailsSchema.safeParse((error as { details?: unknown }).details)
        : null;
      // Asked again only if the bookings changed since the operator saw them.
      if (live?.success) {
        setDialog({ step: 'bookings', action, lockerId, live: live.data });
        return;
      }
      setDialog(null);
      setMessage({
        tone: 'error',
        text: `Errore durante l'azione ${action.label}: ${errorText(error, 'errore sconosciuto')}`,
      });
    } finally {
      setBusy(false);
    }
    await reload(locationKey);
  }

  return {
    dialog,
    busy,
    ask,
    confirm,
    cancel: () => setDialog(null),
  };
}
