import { apiRoutes } from '@deposito/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  arbitraryFromJsonSchema,
  mergeAll,
  UnsupportedSchemaError,
  type JsonSchema,
} from './json-schema-arbitrary';

const toJsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** zod is the oracle: every generated value must pass the schema it was written from. */
function expectAllValid(schema: z.ZodType, numRuns = 200) {
  fc.assert(
    fc.property(arbitraryFromJsonSchema(toJsonSchema(schema)), (value) => {
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw new Error(`${JSON.stringify(value)}: ${parsed.error.message}`);
    }),
    { numRuns },
  );
}

describe('arbitraryFromJsonSchema (zod 4 as the oracle)', () => {
  it('objects with required and optional properties', () => {
    const schema = z.object({ name: z.string().min(2).max(5), age: z.number().int().optional() });
    expectAllValid(schema);
    const keys = fc
      .sample(arbitraryFromJsonSchema(toJsonSchema(schema)), 200)
      .map((v) => Object.keys(v as object));
    expect(keys.some((k) => k.includes('age'))).toBe(true);
    expect(keys.some((k) => !k.includes('age'))).toBe(true);
  });

  it('strict objects get no extra keys; records get keys from propertyNames', () => {
    expectAllValid(z.strictObject({ a: z.boolean() }));
    expectAllValid(z.record(z.string().regex(/^[1-9]\d{0,2}$/), z.number().min(0).max(100).multipleOf(0.01)));
    expectAllValid(z.looseObject({ a: z.literal('x') }));
  });

  it('strings with bounds, patterns and formats', () => {
    expectAllValid(
      z
        .string()
        .min(6)
        .max(80)
        .regex(/^[A-Za-z0-9_-]+$/),
    );
    expectAllValid(z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/));
    expectAllValid(z.email());
    expectAllValid(z.uuid());
    expectAllValid(z.iso.datetime({ offset: true }));
    expectAllValid(z.iso.date());
    expectAllValid(z.url());
    expectAllValid(z.string().length(3));
  });

  it('numbers and integers with inclusive, exclusive and multipleOf bounds', () => {
    expectAllValid(z.number().int().min(1).max(3));
    expectAllValid(z.number().gt(0).max(100));
    expectAllValid(z.number().gt(0).lt(1));
    expectAllValid(z.number().min(0).max(100000).multipleOf(0.01));
    expectAllValid(z.number().int().min(1).max(2147483647));
    expectAllValid(z.number());
  });

  it('booleans, null, enums, literals, arrays, unions, nullable and optional', () => {
    expectAllValid(z.boolean());
    expectAllValid(z.null());
    expectAllValid(z.enum(['standard', 'large']));
    expectAllValid(z.literal('all'));
    expectAllValid(z.array(z.string().max(3)).min(1).max(4));
    expectAllValid(z.union([z.string().max(2), z.number().int()]));
    expectAllValid(z.string().nullable());
    expectAllValid(z.object({ a: z.number().optional().default(3) }));
    expectAllValid(z.tuple([z.string().max(1), z.boolean()]));
    expectAllValid(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a') }),
        z.object({ kind: z.literal('b'), n: z.number() }),
      ]),
    );
  });

  it('intersections (allOf) and recursive schemas ($ref/$defs)', () => {
    expectAllValid(z.intersection(z.object({ a: z.string().max(2) }), z.object({ b: z.boolean() })));
    type Tree = { name: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.object({
      name: z.string().max(3),
      get children() {
        return z.array(tree).max(2);
      },
    });
    expectAllValid(tree, 100);
  });

  it('generates values most request schemas of the API accept', () => {
    // Refinements (cross-field checks, phone numbers) cannot be said in JSON Schema, so some
    // generated values are refused; most of the catalogue's schemas still pass as generated.
    let schemas = 0;
    let mostlyValid = 0;
    for (const route of apiRoutes) {
      for (const schema of Object.values(route.request)) {
        if (!schema) continue;
        const values = fc.sample(arbitraryFromJsonSchema(toJsonSchema(schema)), { numRuns: 20, seed: 42 });
        const valid = values.filter((value) => schema.safeParse(value).success).length;
        schemas += 1;
        if (valid >= values.length / 2) mostlyValid += 1;
      }
    }
    expect(schemas).toBeGreaterThan(40);
    expect(mostlyValid / schemas).toBeGreaterThan(0.6);
  });
});

describe('arbitraryFromJsonSchema (plain JSON Schema)', () => {
  const sample = (schema: JsonSchema, numRuns = 100) => fc.sample(arbitraryFromJsonSchema(schema), numRuns);

  it('follows $ref into $defs and definitions, and cuts recursion off', () => {
    const schema = {
      $defs: { id: { type: 'string', pattern: '^id-\\d$' } },
      definitions: { n: { type: 'integer', minimum: 5, maximum: 5 } },
      type: 'object',
      properties: { a: { $ref: '#/$defs/id' }, b: { $ref: '#/definitions/n' }, self: { $ref: '#' } },
      required: ['a', 'b', 'self'],
    } satisfies JsonSchema;
    for (const value of sample(schema)) {
      const v = value as { a: string; b: number; self: unknown };
      expect(v.a).toMatch(/^id-\d$/);
      expect(v.b).toBe(5);
      expect(typeof v.self).toBe('object');
    }
  });

  it('understands draft-04 boolean exclusive bounds and oneOf, allOf, type lists, prefixItems', () => {
    for (const value of sample({
      type: 'number',
      minimum: 0,
      maximum: 1,
      exclusiveMinimum: true,
      exclusiveMaximum: true,
    }))
      expect(value as number).toBeGreaterThan(0);
    for (const value of sample({ oneOf: [{ const: 1 }, { enum: ['x', 'y'] }] }))
      expect([1, 'x', 'y']).toContain(value);
    for (const value of sample({ allOf: [{ type: 'integer', minimum: 3 }, { maximum: 4 }] }))
      expect([3, 4]).toContain(value);
    for (const value of sample({ type: ['string', 'null'], maxLength: 2 }))
      expect(value === null || (value as string).length <= 2).toBe(true);
    for (const value of sample({
      type: 'array',
      prefixItems: [{ const: 'a' }, { type: 'boolean' }],
      items: false,
    }))
      expect(value).toEqual(['a', expect.any(Boolean)]);
  });

  it('lets the caller replace a format generator', () => {
    const formats = { 'date-time': fc.constant('2026-03-27T10:00:00.000Z') };
    expect(
      fc.sample(arbitraryFromJsonSchema({ type: 'string', format: 'date-time' }, { formats }), 5),
    ).toEqual(Array(5).fill('2026-03-27T10:00:00.000Z'));
  });

  it('lets the caller replace a property generator by name, at any depth', () => {
    const schema = {
      type: 'object',
      properties: {
        inner: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      },
      required: ['inner'],
    } satisfies JsonSchema;
    const properties = { email: fc.constant('a@example.com') };
    expect(fc.sample(arbitraryFromJsonSchema(schema, { properties }), 3)).toEqual(
      Array(3).fill({ inner: { email: 'a@example.com' } }),
    );
  });

  it('merges simple schemas to their conjunction', () => {
    expect(
      mergeAll([
        { type: 'object', properties: { a: true }, required: ['a'], maxLength: 5 },
        { properties: { b: true }, required: ['b', 'a'], maxLength: 3, minLength: 1 },
      ]),
    ).toEqual({
      type: 'object',
      properties: { a: true, b: true },
      required: ['a', 'b'],
      maxLength: 3,
      minLength: 1,
    });
  });

  it('refuses what it cannot generate rather than generating wrong values', () => {
    expect(() => arbitraryFromJsonSchema(false)).toThrow(UnsupportedSchemaError);
    expect(() => arbitraryFromJsonSchema({ enum: [] })).toThrow(UnsupportedSchemaError);
    expect(() => arbitraryFromJsonSchema({ $ref: 'https://example.com/s.json' })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => arbitraryFromJsonSchema({ type: 'integer', minimum: 1.2, maximum: 1.8 })).toThrow(
      UnsupportedSchemaError,
    );
    expect(() => arbitraryFromJsonSchema({ type: 'tuple' })).toThrow(UnsupportedSchemaError);
  });
});
