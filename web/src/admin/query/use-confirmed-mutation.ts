import type { QueryKey } from '@tanstack/react-query';
import { useConfirm, type ConfirmRequest } from '../components/use-confirm';
import { useAdminMutation } from './use-admin-mutation';

/**
 * An action that cannot be taken back (a deletion): the page's dialog asks first, then the mutation
 * runs and refreshes `invalidates`; `onDone` or `onFailed` tell the operator. Render `dialog`.
 */
export function useConfirmedMutation<Variables>(
  mutationFn: (variables: Variables) => Promise<unknown>,
  invalidates: readonly QueryKey[],
  handlers: {
    ask: (variables: Variables) => ConfirmRequest;
    onDone: (variables: Variables) => void;
    onFailed: (error: unknown) => void;
  },
) {
  const confirm = useConfirm();
  const mutation = useAdminMutation(mutationFn, invalidates);
  async function run(variables: Variables) {
    if (!(await confirm.ask(handlers.ask(variables)))) return;
    try {
      await mutation.mutateAsync(variables);
      handlers.onDone(variables);
    } catch (error) {
      handlers.onFailed(error);
    }
  }
  return { dialog: confirm.dialog, run: (variables: Variables) => void run(variables) };
}
