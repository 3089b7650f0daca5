import { useState } from 'react';
import type { BackTo } from './wizard-steps';
import { useClock } from './clock';
import { usePersistentFlow, type PersistentFlowOptions } from './flow-history';

/**
 * A wizard's persistent flow (flow-history.ts) with the page's busy and error state: the browser's
 * Back clears the error and goes back a step (after `onHistoryBack`, which releases what the wizard
 * held), and `go` dispatches after clearing the error.
 */
export function useWizardFlow<S, A extends { type: string }, V extends string>(
  options: Omit<PersistentFlowOptions<S, A | { type: 'back' } | BackTo<V>, V>, 'now' | 'onHistoryBack'> & {
    onHistoryBack?: (state: S, to: V | null) => void;
  },
) {
  const clock = useClock();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Back, a reload and a return from the payment page resume at the visitor's step (flow-history.ts).
  const [state, dispatch, back] = usePersistentFlow({
    ...options,
    now: () => clock().getTime(),
    onHistoryBack: (current, to) => {
      setError(null);
      options.onHistoryBack?.(current, to);
      dispatch(to === null ? { type: 'back' } : { type: 'backTo', step: to });
    },
  });
  const go = (action: A | { type: 'back' } | BackTo<V>) => {
    setError(null);
    dispatch(action);
  };
  return { state, dispatch, back, go, busy, setBusy, error, setError };
}
