// Server-rendered pages and e-mails build HTML with this tagged template, which escapes every
// interpolated value unless it is already trusted markup (another `html` result).

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** Markup that has already been escaped (the result of {@link html}). */
export class TrustedHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type HtmlValue = string | number | TrustedHtml | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof TrustedHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): TrustedHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new TrustedHtml(out);
}

/** A value embedded in an inline <script>: JSON with `<` escaped, so it cannot close the script element. */
export function scriptValue(value: unknown): TrustedHtml {
  return new TrustedHtml(JSON.stringify(value).replace(/</g, '\\u003c'));
}
