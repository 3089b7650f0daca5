import { act, render, waitFor } from '@testing-library/react';
import { startTransition, Suspense, use, useState } from 'react';
import { Router, useLocation, type Navigator, type To } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { useWizardFlow } from './wizard-flow';
import { defineWizard } from './wizard-steps';

// The page's Back on a busy device, where React Router's address change (a transition) lands after
// the step it belongs to: the browser history here holds a step forward back until the test lets it
// through, as such a device does.

type Step = 'first' | 'second' | 'third';
const WIZARD = defineWizard<{ step: Step }, Step, { type: 'next' }>(
  ['first', 'second', 'third'],
  (state) => state.step,
  (state, action) => {
    const order: Step[] = ['first', 'second', 'third'];
    const at = order.indexOf(state.step);
    return { step: order[action.type === 'next' ? at + 1 : Math.max(0, at - 1)]! };
  },
);

interface Entry {
  search: string;
  state: unknown;
}

/** A browser history whose pushes wait for `release()`; going back and replacing happen at once. */
function slowHistory() {
  const entries: Entry[] = [{ search: '', state: null }];
  let index = 0;
  let held: Entry[] = [];
  let show: (entry: Entry, how: 'POP' | 'PUSH' | 'REPLACE') => void = () => {};
  const searchOf = (to: To) => (typeof to === 'string' ? to : (to.search ?? ''));
  const navigator: Navigator = {
    createHref: (to) => searchOf(to),
    push: (to, state) => held.push({ search: searchOf(to), state }),
    replace: (to, state) => {
      entries[index] = { search: searchOf(to), state };
      show(entries[index]!, 'REPLACE');
    },
    go: (delta) => {
      index = Math.max(0, Math.min(entries.length - 1, index + delta));
      show(entries[index]!, 'POP');
    },
  };
  return {
    navigator,
    entries: () => entries.slice(0, index + 1).map((entry) => entry.search),
    listen: (listener: typeof show) => (show = listener),
    release: () => {
      for (const entry of held.splice(0)) {
        entries.splice(index + 1, entries.length, entry);
        index += 1;
        show(entry, 'PUSH');
      }
      held = [];
    },
  };
}

/**
 * A part of the page that cannot be drawn at `search` until `open()`: React sets aside a transition
 * whose render reaches it, after the wizard has already been rendered (not shown) at that address.
 */
function gate(search: string) {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  let isOpen = false;
  function Gate() {
    if (useLocation().search === search && !isOpen) use(opened);
    return null;
  }
  return {
    Gate,
    open: () => {
      isOpen = true;
      open();
    },
  };
}

function renderWizard(Gate: () => null = () => null) {
  const history = slowHistory();
  const seen: { step?: Step; back?: () => void; next?: () => void } = {};
  function Wizard() {
    const flow = useWizardFlow({
      key: 'test.slow-history',
      ...WIZARD,
      initial: { step: 'first' as Step },
      restore: () => null,
    });
    seen.step = flow.state.step;
    seen.back = flow.back;
    seen.next = () => flow.go({ type: 'next' });
    return null;
  }
  function App() {
    const [at, setAt] = useState<{ entry: Entry; how: 'POP' | 'PUSH' | 'REPLACE' }>({
      entry: { search: '', state: null },
      how: 'POP',
    });
    history.listen((entry, how) => setAt({ entry, how }));
    return (
      <Router
        navigator={history.navigator}
        location={{ pathname: '/', search: at.entry.search, hash: '', state: at.entry.state, key: 'k' }}
        navigationType={at.how as never}
      >
        <Wizard />
        <Suspense fallback={null}>
          <Gate />
        </Suspense>
      </Router>
    );
  }
  render(<App />);
  return { history, seen };
}

describe('the wizard flow on a busy device', () => {
  it('goes back one step per Back when Back comes before the step’s address', () => {
    sessionStorage.clear();
    const { history, seen } = renderWizard();
    act(() => seen.next!());
    act(() => history.release());
    expect(history.entries()).toEqual(['', '?step=second']);

    // The third step is drawn; its address is still on the way when the visitor presses Back.
    act(() => seen.next!());
    expect(seen.step).toBe('third');
    act(() => seen.back!());
    act(() => history.release());
    expect(seen.step).toBe('second');
    expect(history.entries()).toEqual(['', '?step=second']);

    // The next Back goes to the first step: no entry of the same step is left to land on.
    act(() => seen.back!());
    expect(seen.step).toBe('first');
    expect(history.entries()).toEqual(['']);
  });

  it('goes back when Back comes while the step’s address is rendered but not yet shown', async () => {
    sessionStorage.clear();
    const slow = gate('?step=third');
    const { history, seen } = renderWizard(slow.Gate);
    act(() => seen.next!());
    act(() => history.release());

    // The third step is drawn. React renders its address in a transition (as React Router moves it)
    // and sets that render aside unshown: the page still shows the second step's address.
    act(() => seen.next!());
    await act(async () => startTransition(() => history.release()));
    expect(history.entries()).toEqual(['', '?step=second', '?step=third']);
    act(() => seen.back!());
    await act(async () => slow.open());

    // Back waited for the address it saw shown, then took the visitor back a step.
    await waitFor(() => expect(seen.step).toBe('second'));
    expect(history.entries()).toEqual(['', '?step=second']);
  });

  it('lets a step chosen after a waiting Back replace it', () => {
    sessionStorage.clear();
    const { history, seen } = renderWizard();
    act(() => seen.next!());
    act(() => seen.back!());
    // Before the address of the second step arrives, the visitor goes on instead.
    act(() => seen.next!());
    act(() => history.release());
    expect(seen.step).toBe('third');
    expect(history.entries()).toEqual(['', '?step=second', '?step=third']);
  });
});
