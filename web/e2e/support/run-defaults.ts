import type { PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './chromium';

// How every end-to-end run goes, in playwright.config.ts and in the system stories' configs.

/** One test at a time (the tests change the cloud's global settings), never retried, listed as they run. */
export const E2E_RUN = {
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
} satisfies PlaywrightTestConfig;

/**
 * The visitor every test is: in Rome, reading Italian (the product's default language; tests that
 * need another one switch explicitly), on the system Chromium, with a trace kept of a failure.
 */
export const E2E_VISITOR = {
  locale: 'it-IT',
  timezoneId: 'Europe/Rome',
  trace: 'retain-on-failure',
  launchOptions: CHROMIUM_LAUNCH_OPTIONS,
} satisfies PlaywrightTestConfig['use'];
