import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../env';
import { LAZY_PAGES } from './page-modules';

// The manifest names a page by its source file, which the cloud cannot check at run time (a renamed
// page only loses its preloads), so this does: every page it preloads is still a lazy route.
describe('the lazy pages the cloud preloads', () => {
  const app = readFileSync(path.join(REPO_ROOT, 'web', 'src', 'App.tsx'), 'utf8');

  it.each(LAZY_PAGES.map((page) => [page.module]))('%s is a lazy page of web/src/App.tsx', (module) => {
    expect(existsSync(path.join(REPO_ROOT, 'web', module))).toBe(true);
    const fromApp = `./${path.posix.relative('src', module).replace(/\.tsx?$/, '')}`;
    expect(app).toContain(`import('${fromApp}')`);
  });

  it('matches the night wizard paths as React Router does', () => {
    const night = LAZY_PAGES.find((page) => page.module === 'src/night/NightWizardPage.tsx')!;
    for (const pagePath of [
      '/booking-notte',
      '/booking-notte/',
      '/booking-notte/vicolo',
      '/BOOKING-NOTTE/oca/',
    ])
      expect(night.path.test(pagePath)).toBe(true);
    for (const pagePath of ['/vicolo', '/booking-notte/vicolo/x', '/booking-nottex', '/x/booking-notte'])
      expect(night.path.test(pagePath)).toBe(false);
  });
});
