import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe on the page as it is now (WCAG 2.x A and AA rules and axe's best practices); fails
 * listing each violation with the nodes it found.
 */
export async function expectNoViolations(page: Page, where: string): Promise<void> {
  // The page as it settles, not mid-way through a 0.15 s colour transition (a button just enabled
  // was measured half-faded: a contrast "violation" no visitor sees).
  await page.addStyleTag({
    content: '*, *::before, *::after { transition: none !important; animation: none !important; }',
  });
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const described = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(described, `axe violations on ${where}`).toEqual([]);
}
