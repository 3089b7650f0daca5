import { afterEach } from 'vitest';

// Each test starts as a new tab: no booking flow saved by the one before (components/flow-history.ts).
afterEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});
