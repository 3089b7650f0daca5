import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_FORM_ERRORS,
  LANGUAGES,
  PAYMENT_AMOUNT_ERROR,
  PAYMENT_FIELDS_ERROR,
  REQUIRED_FIELDS_ALERT,
} from '@deposito/protocol';

const srcDir = fileURLToPath(new URL('.', import.meta.url));
const localesDir = fileURLToPath(new URL('../../locales', import.meta.url));

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const locales = new Map(
  LANGUAGES.map((lng) => [
    lng,
    flatten(JSON.parse(readFileSync(join(localesDir, lng, 'common.json'), 'utf8')) as Tree),
  ]),
);
const italian = locales.get('it')!;
const namespaces = new Set([...italian.keys()].map((key) => key.split('.')[0]));

/** Keys named in the code: `t('a.b')` calls, and quoted 'a.b' literals under one of our top-level sections. */
function usedKeys(): { literal: Map<string, string>; dynamic: Map<string, string> } {
  const literal = new Map<string, string>();
  const dynamic = new Map<string, string>();
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, 'utf8');
    const where = relative(srcDir, file);
    for (const match of text.matchAll(/\bt\(\s*(['"])([^'"\n]+)\1/g)) literal.set(match[2]!, where);
    for (const match of text.matchAll(/\bt\(\s*`([^`\n]+)`/g)) {
      if (match[1]!.includes('${')) dynamic.set(match[1]!, where);
      else literal.set(match[1]!, where);
    }
    for (const match of text.matchAll(/['"]([a-zA-Z]+(?:\.[a-zA-Z0-9_]+)+)['"]/g)) {
      if (namespaces.has(match[1]!.split('.')[0]!)) literal.set(match[1]!, where);
    }
  }
  return { literal, dynamic };
}

const placeholders = (value: string) => [...value.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]).sort();

describe('translations', () => {
  const { literal, dynamic } = usedKeys();

  it('finds the keys the customer pages use', () => {
    expect(literal.size).toBeGreaterThan(100);
  });

  it.each(LANGUAGES)('%s has every key used in web/src', (lng) => {
    const keys = locales.get(lng)!;
    // A key used with a count lives as key_one / key_other.
    const has = (key: string) => keys.has(key) || keys.has(`${key}_other`);
    const missing = [...literal].filter(([key]) => !has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
    for (const [template, file] of dynamic) {
      const pattern = new RegExp(
        `^${template.replace(/\./g, '\\.').replace(/\$\{[^}]+\}/g, '[^.]+')}(_one|_other)?$`,
      );
      expect(
        [...keys.keys()].some((key) => pattern.test(key)),
        `${template} (${file})`,
      ).toBe(true);
    }
  });

  it.each(LANGUAGES.filter((lng) => lng !== 'it'))('%s has exactly the Italian keys', (lng) => {
    expect([...locales.get(lng)!.keys()].sort()).toEqual([...italian.keys()].sort());
  });

  it.each(LANGUAGES)('%s has no empty text and the same placeholders as Italian', (lng) => {
    for (const [key, value] of locales.get(lng)!) {
      expect(value.trim(), key).not.toBe('');
      expect(placeholders(value), key).toEqual(placeholders(italian.get(key) ?? ''));
    }
  });

  it('has real translations, not Italian copies', () => {
    for (const lng of ['en', 'es', 'jp'] as const) {
      const keys = locales.get(lng)!;
      // Sentences, not names or "{{count}} × {{size}}": those may rightly be the same everywhere.
      const isSentence = (value: string) =>
        value.replace(/\{\{[^}]+\}\}/g, '').replace(/[^\p{L}]/gu, '').length >= 20;
      const copies = [...italian].filter(([key, value]) => isSentence(value) && keys.get(key) === value);
      expect(copies.map(([key]) => `${lng}:${key}`)).toEqual([]);
    }
  });

  it('contains the keys the spec names', () => {
    for (const key of [
      ...Object.values(CUSTOMER_FORM_ERRORS),
      REQUIRED_FIELDS_ALERT,
      PAYMENT_FIELDS_ERROR,
      PAYMENT_AMOUNT_ERROR,
      'payment.error.fields',
      'payment.error.amount',
      'payment.error.timeout',
      'payment.error.save',
      'form.error.name',
      'form.error.surname',
      'form.error.email.required',
      'form.error.email.invalid',
      'form.error.confirmEmail.required',
      'form.error.confirmEmail.mismatch',
      'form.error.phone.required',
      'form.error.phone.invalid',
      'form.alert.requiredFields',
      'calendar.error.noAvailability',
      'calendar.error.checkAvailability',
      'night.error.noAvailability',
      'lockerQuantity.maxLimit',
    ]) {
      for (const lng of LANGUAGES) expect(locales.get(lng)!.has(key), `${lng}:${key}`).toBe(true);
    }
  });
});
