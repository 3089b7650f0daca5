/**
 * The system Chromium every end-to-end run drives (playwright.config.ts and the system stories),
 * without what a test browser has no use for: sandbox, GPU, updates, sync, first-run screens.
 */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
