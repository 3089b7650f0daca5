import { describe, expect, it } from 'vitest';
import {
  MAX_FUNCTION_LINES,
  describeLongFunction,
  longFunctions,
  longFunctionsInText,
} from './support/long-functions';

// Issue 22: no function over 120 lines, anywhere in the project's code (the callbacks of describe,
// it and test excepted: see support/long-functions.ts).
const CHECKED_FOLDERS = ['protocol', 'cloud', 'edge-bridge', 'web', 'scripts'];

describe('function length', () => {
  it(`finds no function over ${MAX_FUNCTION_LINES} lines in ${CHECKED_FOLDERS.join(', ')}`, () => {
    const tooLong = longFunctions(CHECKED_FOLDERS).map(describeLongFunction);
    expect(tooLong).toEqual([]);
  });

  it('measures functions, methods and arrows, the functions inside them included', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = [
      `export function long() {\n${body(119)}\n}`,
      `export function short() {\n${body(118)}\n}`,
      `class Store {\n  save() {\n${body(130)}\n  }\n}`,
      `const arrow = () => {\n  const inner = () => {\n${body(125)}\n  };\n};`,
    ].join('\n');
    const found = longFunctionsInText('example.ts', text).map((f) => `${f.name} ${f.lines}`);
    expect(found).toEqual(['long 121', 'Store.save 132', 'arrow 129', 'inner 127']);
  });

  it("passes over the callbacks of describe, it and test, but not a test file's other functions", () => {
    const lines = Array.from({ length: 130 }, (_, i) => `    expect(${i}).toBe(${i});`).join('\n');
    const text = [
      `describe.each([1])('suite', () => {\n  it('case', () => {\n${lines}\n  });\n});`,
      `function helper() {\n${lines}\n}`,
    ].join('\n');
    expect(longFunctionsInText('example.test.ts', text).map((f) => f.name)).toEqual(['helper']);
  });
});
