import { test, type Page, type TestInfo } from '@playwright/test';

// The two screens every customer page is tested on: the projects of the mocked specs
// (playwright.config.ts), and each test of the customer specs against the real cloud, which run
// both screens in one project so that nothing else changes the cloud meanwhile.

export const VISITOR_SCREENS = [
  { name: 'phone', viewport: { width: 360, height: 740 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
] as const;

export type VisitorScreen = (typeof VISITOR_SCREENS)[number]['name'];

/** The screen the page is shown on. */
export function screenOf(page: Page): VisitorScreen {
  return page.viewportSize()!.width < VISITOR_SCREENS[1].viewport.width ? 'phone' : 'desktop';
}

/**
 * Declares the test once for each visitor screen, in a group named after the screen (the phone's
 * first): the customer specs against the real cloud, which run in one project at one size.
 */
export function testOnEveryScreen(
  title: string,
  body: (fixtures: { page: Page }, testInfo: TestInfo) => Promise<void>,
): void {
  for (const screen of VISITOR_SCREENS) {
    test.describe(screen.name, () => {
      test.use({ viewport: screen.viewport });
      test(title, body);
    });
  }
}
