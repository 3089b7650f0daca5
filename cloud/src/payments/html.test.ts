import { describe, expect, it } from 'vitest';
import { escapeHtml, html, scriptValue } from './html';

// Under another name, so the formatter leaves the exact markup of these templates alone.
const markup = html;

describe('html template', () => {
  it('escapes interpolated text but not nested markup', () => {
    const name = `<b>"O'Brien" & co</b>`;
    expect(markup`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;b&gt;&quot;O&#39;Brien&quot; &amp; co&lt;/b&gt;">&lt;b&gt;&quot;O&#39;Brien&quot; &amp; co&lt;/b&gt;</p>',
    );
    expect(markup`<ul>${['a', 'b'].map((item) => markup`<li>${item}</li>`)}</ul>`.value).toBe(
      '<ul><li>a</li><li>b</li></ul>',
    );
    expect(markup`${null}${undefined}${false}${0}`.value).toBe('0');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('keeps a script value from closing its script element', () => {
    expect(scriptValue('</script><script>alert(1)</script>').value).toBe(
      '"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"',
    );
  });
});
