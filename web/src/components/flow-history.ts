import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, type Dispatch } from 'react';
import { useLocation, useNavigate, useNavigationType, useSearchParams } from 'react-router-dom';

// A step-by-step booking flow whose steps live in the browser history and whose choices live in
// session storage (this tab only): the phone's Back goes one step back, and a reload, or coming back
// from the payment page, resumes at the step the visitor was on with everything they chose.

/** Saved flows older than this start again: their times and prices may no longer hold. */
const MAX_AGE_MS = 60 * 60_000;
const STORAGE_PREFIX = 'deposito.flow.';
/** The query parameter naming the step. */
export const STEP_PARAM = 'step';

interface SavedFlow<S> {
  savedAt: number;
  state: S;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage refused (a sandboxed frame, privacy settings): the flow simply does not resume.
    return null;
  }
}

function load<S>(key: string, now: number): S | null {
  try {
    const saved = JSON.parse(storage()?.getItem(STORAGE_PREFIX + key) ?? 'null') as SavedFlow<S> | null;
    if (!saved || typeof saved.savedAt !== 'number' || now - saved.savedAt > MAX_AGE_MS) return null;
    return saved.state;
  } catch {
    return null;
  }
}

/** Whether a parsed JSON value holds `text` as one of its strings, at any depth. */
function holdsString(value: unknown, text: string): boolean {
  if (value === text) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some((inner) => holdsString(inner, text));
}

/** Forgets every saved flow holding this booking (it was paid, or is over): nothing resumes it. */
export function forgetFlowsOf(transactionId: string): void {
  const store = storage();
  if (!store) return;
  for (const key of Object.keys(store)) {
    if (!key.startsWith(STORAGE_PREFIX)) continue;
    try {
      if (
        holdsString(
          (JSON.parse(store.getItem(key) ?? 'null') as SavedFlow<unknown> | null)?.state,
          transactionId,
        )
      )
        store.removeItem(key);
    } catch {
      store.removeItem(key); // Not a flow this page saved: nothing can resume from it.
    }
  }
}

export interface PersistentFlowOptions<S, A, V extends string> {
  /** Session storage key of this flow, e.g. `daytime.vicolo`. */
  key: string;
  reducer: (state: S, action: A) => S;
  initial: S;
  /** The steps in order: a step after the one in the address is a step forward. */
  order: readonly V[];
  /** The step a state is at. */
  stepOf: (state: S) => V;
  /** A saved state checked before it is used (null: start again). */
  restore: (saved: S) => S | null;
  /**
   * Back to an earlier step (the browser's Back, to `to`), or one step back as the page's own Back
   * button goes (`to` null): the flow goes back, releasing what it held.
   */
  onHistoryBack: (state: S, to: V | null) => void;
  now: () => number;
}

/**
 * `useReducer` for a flow, with its state saved in session storage and each step forward pushed
 * onto the browser history (`?step=…`) as it is dispatched. Returns the state, the dispatcher and
 * `back`, for the page's own Back buttons: it goes back through the history, so both Backs agree.
 */
export function usePersistentFlow<S, A, V extends string>(
  options: PersistentFlowOptions<S, A, V>,
): [S, Dispatch<A>, () => void] {
  const { key, order, stepOf } = options;
  const [state, dispatchState] = useReducer(options.reducer, options.initial, (initial) => {
    const saved = load<S>(key, options.now());
    return (saved && order.includes(stepOf(saved)) && options.restore(saved)) || initial;
  });
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  // Set on the entries this flow pushed: only then is the entry before it the step before.
  const pushedHere = (useLocation().state as { flowStep?: boolean } | null)?.flowStep === true;
  const first = order[0]!;
  const raw = searchParams.get(STEP_PARAM);
  const addressStep = raw !== null && (order as readonly string[]).includes(raw) ? (raw as V) : first;
  // What the page shows, for the handlers and effects below: set once shown, as React may draw the
  // address's transition and set it aside (a busy device). A Back reading that address went back from
  // an entry never reached, to the address already shown: no change for the flow to follow.
  const rendered = { options, state, searchParams, pushedHere, navigate, navigationType, addressStep };
  const latest = useRef(rendered);
  useLayoutEffect(() => {
    latest.current = rendered;
  });
  /** The page's Back was pressed while the address was still moving to the step: go back once it is there. */
  const backOnArrival = useRef(false);

  /** The address of a step, keeping the page's other parameters. */
  const searchFor = useCallback(
    (view: V) => {
      const search = new URLSearchParams(latest.current.searchParams);
      if (view === first) search.delete(STEP_PARAM);
      else search.set(STEP_PARAM, view);
      return search.toString();
    },
    [first],
  );

  // Moves the address with the step in the same update: a step forward is a new history entry,
  // a step back or a restart replaces the current one.
  const dispatch = useCallback(
    (action: A) => {
      const { state: current, options: now } = latest.current;
      const { stepOf: step } = now;
      const next = now.reducer(current, action);
      dispatchState(action);
      if (step(next) === step(current)) return;
      // A step taken after a Back that was waiting for the address replaces that Back.
      backOnArrival.current = false;
      const forward = order.indexOf(step(next)) > order.indexOf(step(current));
      // A replaced entry keeps its mark: the entry before it is still the step before.
      navigate(
        { search: searchFor(step(next)) },
        { replace: !forward, state: { flowStep: forward || latest.current.pushedHere } },
      );
    },
    [navigate, order, searchFor],
  );

  useEffect(() => {
    const store = storage();
    try {
      if (latest.current.options.stepOf(state) === first) store?.removeItem(STORAGE_PREFIX + key);
      else
        store?.setItem(
          STORAGE_PREFIX + key,
          JSON.stringify({ savedAt: latest.current.options.now(), state }),
        );
    } catch {
      // Storage full or refused: the flow works, it just does not resume.
    }
  }, [state, key, first]);

  /** One step back, once the address shows the flow's step. */
  const goBack = useCallback(() => {
    const { pushedHere: pushed, navigate: go, options: now, state: current } = latest.current;
    // The step in the address was pushed by the step before it: the history's Back returns there.
    if (pushed) go(-1);
    else now.onHistoryBack(current, null);
  }, []);

  // The browser moved the address (Back, Forward, its history menu), or the page opened on an
  // address the flow does not hold (a reload after the flow restarted, no saved flow). Only a change
  // of address calls for this (the flow's own steps move the address themselves), so the rest is
  // read as it stands then, not depended on.
  useEffect(() => {
    const {
      options: now,
      state: current,
      navigate: go,
      navigationType: how,
      pushedHere: pushed,
    } = latest.current;
    const at = now.stepOf(current);
    if (addressStep === at) {
      if (backOnArrival.current) {
        backOnArrival.current = false;
        goBack();
      }
      return;
    }
    if (how === 'POP' && order.indexOf(addressStep) < order.indexOf(at)) {
      now.onHistoryBack(current, addressStep);
      return;
    }
    go({ search: searchFor(at) }, { replace: true, state: { flowStep: pushed } });
  }, [addressStep, order, searchFor, goBack]);

  const back = useCallback(() => {
    const { options: now, state: current, addressStep: shown } = latest.current;
    // React Router moves the address in a transition, which a busy device renders after the step
    // itself: Back pressed in between waits for the address (see the effect above). Going back at
    // once would take the state back while the step's own entry was still to come, and the next Back
    // would land on that entry, the same step, and seem to do nothing.
    if (shown === now.stepOf(current)) goBack();
    else backOnArrival.current = true;
  }, [goBack]);

  return [state, dispatch, back];
}
