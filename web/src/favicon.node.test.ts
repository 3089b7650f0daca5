import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Every page of the web app (customer and admin) shows the same icon in the browser's tab.

describe('favicon', () => {
  it('links an SVG icon from web/public in index.html', () => {
    const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
    const href = /<link rel="icon" type="image\/svg\+xml" href="\/([^"]+)"/.exec(html)?.[1];
    expect(href).toBe('favicon.svg');
    const svg = readFileSync(new URL(`../public/${href}`, import.meta.url), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
