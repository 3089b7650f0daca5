import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// findBy…/waitFor wait up to 5 s (Testing Library's default is 1 s): the suite shares two cores with
// the cloud's suites under `npm test`, and a busy machine renders a lazy page in more than a second.
configure({ asyncUtilTimeout: 5_000 });

// Each test starts as a new tab: no booking flow saved by the one before (components/flow-history.ts).
afterEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});

// Each test leaves no page rendered and no global stubbed (fetch by test/fake-api.ts, URL, location)
// for the next one.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
