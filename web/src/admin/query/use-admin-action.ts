import type { QueryKey } from '@tanstack/react-query';
import { errorText } from '../admin-api';
import { useAdminMutation } from './use-admin-mutation';

/** What an action tells the operator once it has run. */
export interface ActionMessage {
  tone: 'success' | 'error';
  text: string;
}

/** What every action on one booking is given: the booking, and where to tell its outcome. */
export interface BookingActionProps {
  transactionId: string;
  onDone: (message: ActionMessage) => void;
}

/** Every booking's reads (the lists, a booking's history): what a booking action changes. */
export const BOOKING_KEYS: readonly QueryKey[] = [['bookings']];

/**
 * A one-off action on a booking or a site (move, resend, refund, extend): the shared mutation, so
 * what it changed is read again before `onDone` hears the outcome — the server's message, or the
 * failure's Italian text after `failure` ("Locker non cambiato: …"). `busy` while it runs.
 */
export function useAdminAction<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  outcome: { success: (result: Result) => ActionMessage; failure: string },
  onDone: (message: ActionMessage) => void,
  invalidates: readonly QueryKey[] = BOOKING_KEYS,
) {
  const mutation = useAdminMutation(mutationFn, invalidates);
  async function run(variables: Variables) {
    try {
      onDone(outcome.success(await mutation.mutateAsync(variables)));
    } catch (error) {
      onDone({ tone: 'error', text: `${outcome.failure}: ${errorText(error, 'errore sconosciuto')}` });
    }
  }
  return { run, busy: mutation.isPending };
}
