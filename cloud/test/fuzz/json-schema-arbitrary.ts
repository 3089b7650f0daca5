import fc from 'fast-check';

// zod-fast-check does not follow zod 4 and fast-check 4, so the API fuzzer goes through JSON Schema:
// zod 4 writes each request schema out with `z.toJSONSchema(schema, { io: 'input', unrepresentable:
// 'any' })` and this module turns that JSON Schema into a fast-check arbitrary of values the schema
// accepts. It covers what zod 4 emits for our contracts (objects, records, strings with bounds,
// patterns and formats, numbers with bounds and multipleOf, enums, consts, arrays, unions, $ref).
// What JSON Schema cannot say (refinements, transforms) is not generated: such values may be
// refused, which is fine for a fuzzer whose point is that nothing answers 5xx.

/** A JSON Schema node as zod 4 writes it (draft 2020-12), or a boolean schema. */
export type JsonSchema = boolean | JsonSchemaObject;
export interface JsonSchemaObject {
  [keyword: string]: unknown;
}

export interface ArbitraryOptions {
  /** Replaces the generator of a string `format` (e.g. dates near the test's clock). */
  formats?: Partial<Record<string, fc.Arbitrary<string>>>;
  /**
   * Replaces the generator of an object property by its name, wherever it appears (e.g. `email`, for
   * fields whose rules JSON Schema cannot say). The schema's own generator is used when absent.
   */
  properties?: Partial<Record<string, fc.Arbitrary<unknown>>>;
  /** Upper bound on generated strings without a `maxLength` (default 24). */
  maxStringLength?: number;
  /** Upper bound on generated arrays and records without a `maxItems`/`maxProperties` (default 4). */
  maxItems?: number;
  /** How deep `$ref`s are followed before a recursive schema is cut off (default 4). */
  maxRefDepth?: number;
}

/**
 * The string arbitraries already built, by what they generate. Building one sets up its characters'
 * tables and default values (~10 ms for a pattern's); a run builds the same few dozen for hundreds of
 * fields (4 of the fuzz test's 14 s). fast-check's arbitraries hold no state, so one serves them all.
 */
const builtStrings = new Map<string, fc.Arbitrary<string>>();

function builtOnce(key: string, build: () => fc.Arbitrary<string>): fc.Arbitrary<string> {
  let built = builtStrings.get(key);
  if (!built) builtStrings.set(key, (built = build()));
  return built;
}

const DEFAULT_FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  date: fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 10)),
  email: fc.emailAddress(),
  uuid: fc.uuid(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
};

/** Thrown for a schema this translator does not understand: better loud than silently wrong. */
export class UnsupportedSchemaError extends Error {}

/** An arbitrary of values valid for `schema` (as far as JSON Schema can say). */
export function arbitraryFromJsonSchema(
  schema: JsonSchema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const root = typeof schema === 'object' ? schema : {};
  return new Translator(root, options).translate(schema, 0);
}

type TypeArbitrary = (schema: JsonSchemaObject, refDepth: number) => fc.Arbitrary<unknown>;

class Translator {
  private readonly formats: Record<string, fc.Arbitrary<string>>;
  private readonly maxStringLength: number;
  private readonly maxItems: number;
  private readonly maxRefDepth: number;
  private readonly properties: Partial<Record<string, fc.Arbitrary<unknown>>>;

  constructor(
    private readonly root: JsonSchemaObject,
    options: ArbitraryOptions,
  ) {
    this.formats = { ...DEFAULT_FORMATS };
    for (const [format, arbitrary] of Object.entries(options.formats ?? {})) {
      if (arbitrary) this.formats[format] = arbitrary;
    }
    this.maxStringLength = options.maxStringLength ?? 24;
    this.maxItems = options.maxItems ?? 4;
    this.maxRefDepth = options.maxRefDepth ?? 4;
    this.properties = options.properties ?? {};
  }

  translate(schema: JsonSchema, refDepth: number): fc.Arbitrary<unknown> {
    if (schema === true) return fc.jsonValue();
    if (schema === false) throw new UnsupportedSchemaError('the schema `false` has no valid value');

    if (typeof schema.$ref === 'string') {
      const { $ref, ...siblings } = schema;
      const target = this.resolve($ref);
      if (refDepth >= this.maxRefDepth) {
        // A recursive schema cut off: the smallest value of the target (often an empty array/object).
        return this.smallest(target);
      }
      return this.translate(mergeAll([target, siblings]), refDepth + 1);
    }
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) {
      if (schema.enum.length === 0) throw new UnsupportedSchemaError('an empty enum has no valid value');
      return fc.constantFrom(...(schema.enum as unknown[]));
    }
    if (Array.isArray(schema.allOf)) {
      const { allOf, ...siblings } = schema;
      return this.translate(
        mergeAll([siblings, ...(allOf as JsonSchema[]).map((s) => this.deref(s))]),
        refDepth,
      );
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) {
        const { [keyword]: _branches, ...siblings } = schema;
        // oneOf branches are treated like anyOf: zod's unions are anyOf; a value valid for two
        // branches of a oneOf may be refused, which a fuzzer tolerates.
        return fc.oneof(
          ...(branches as JsonSchema[]).map((branch) =>
            this.translate(mergeAll([siblings, branch]), refDepth),
          ),
        );
      }
    }

    const type = schema.type;
    if (Array.isArray(type)) {
      return fc.oneof(...type.map((t) => this.translate({ ...schema, type: t }, refDepth)));
    }
    if (type === undefined) {
      if ('properties' in schema || 'additionalProperties' in schema) return this.object(schema, refDepth);
      if ('items' in schema || 'prefixItems' in schema) return this.array(schema, refDepth);
      // `{}` (also what `unrepresentable: 'any'` writes): any JSON value.
      return fc.jsonValue();
    }
    if (typeof type !== 'string' || !Object.hasOwn(this.byType, type)) {
      throw new UnsupportedSchemaError(`unknown type ${JSON.stringify(type)}`);
    }
    return this.byType[type]!(schema, refDepth);
  }

  /** The values of each JSON Schema `type`. */
  private readonly byType: Record<string, TypeArbitrary> = {
    string: (schema) => this.string(schema),
    integer: (schema) => this.number(schema, true),
    number: (schema) => this.number(schema, false),
    boolean: () => fc.boolean(),
    null: () => fc.constant(null),
    array: (schema, refDepth) => this.array(schema, refDepth),
    object: (schema, refDepth) => this.object(schema, refDepth),
  };

  private resolve(ref: string): JsonSchema {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    if (ref === '#') return this.root;
    if (!match) throw new UnsupportedSchemaError(`only local $refs are supported, not ${ref}`);
    const defs = this.root[match[1]!] as Record<string, JsonSchema> | undefined;
    const name = decodeURIComponent(match[2]!).replace(/~1/g, '/').replace(/~0/g, '~');
    const target = defs?.[name];
    if (target === undefined) throw new UnsupportedSchemaError(`unresolved $ref ${ref}`);
    return target;
  }

  private deref(schema: JsonSchema): JsonSchema {
    return typeof schema === 'object' && typeof schema.$ref === 'string' ? this.resolve(schema.$ref) : schema;
  }

  private smallest(schema: JsonSchema): fc.Arbitrary<unknown> {
    const target = this.deref(schema);
    if (typeof target === 'object' && target.type === 'array') return fc.constant([]);
    if (typeof target === 'object' && target.type === 'object') return fc.constant({});
    return fc.constant(null);
  }

  private string(schema: JsonSchemaObject): fc.Arbitrary<string> {
    const minLength = numberOr(schema.minLength, 0);
    // No `maxLength`: formats and patterns bound themselves; free text stays short.
    const maxLength = numberOr(schema.maxLength, Number.POSITIVE_INFINITY);
    const fitsLength = (value: string) => value.length >= minLength && value.length <= maxLength;
    const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : null;
    const format = typeof schema.format === 'string' ? this.formats[schema.format] : undefined;
    if (format) {
      // A format generator knows the shape; the pattern zod writes beside it is checked as well.
      return format.filter((value) => fitsLength(value) && (pattern === null || pattern.test(value)));
    }
    if (pattern) {
      return builtOnce(`pattern ${schema.pattern as string} ${maxLength}`, () =>
        fc.stringMatching(pattern, { size: 'small', ...(Number.isFinite(maxLength) ? { maxLength } : {}) }),
      ).filter((value) => fitsLength(value) && pattern.test(value));
    }
    const cappedMax = Math.min(maxLength, minLength + this.maxStringLength);
    return builtOnce(`text ${minLength} ${cappedMax}`, () =>
      fc.string({ minLength, maxLength: cappedMax, unit: 'grapheme' }),
    ).filter(fitsLength);
  }

  private number(schema: JsonSchemaObject, integer: boolean): fc.Arbitrary<number> {
    // Draft 2020-12 writes exclusive bounds as numbers; draft-04 as booleans beside minimum/maximum.
    let min = typeof schema.minimum === 'number' ? schema.minimum : -Number.MAX_VALUE;
    let max = typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_VALUE;
    let minExcluded = schema.exclusiveMinimum === true;
    let maxExcluded = schema.exclusiveMaximum === true;
    if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= min) {
      min = schema.exclusiveMinimum;
      minExcluded = true;
    }
    if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= max) {
      max = schema.exclusiveMaximum;
      maxExcluded = true;
    }
    const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : null;
    if (integer || step !== null) {
      const unit = step ?? 1;
      // Integer multiples k·unit inside the bounds; k kept within the safe integers.
      const unitMin = integer && unit < 1 ? 1 : unit;
      let low = Math.ceil(Math.max(min, -Number.MAX_SAFE_INTEGER) / unitMin);
      let high = Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER) / unitMin);
      if (minExcluded && low * unitMin <= min) low += 1;
      if (maxExcluded && high * unitMin >= max) high -= 1;
      low = Math.max(low, -Number.MAX_SAFE_INTEGER);
      high = Math.min(high, Number.MAX_SAFE_INTEGER);
      if (low > high)
        throw new UnsupportedSchemaError(`no ${integer ? 'integer' : 'multiple'} in the bounds`);
      const decimals = decimalsOf(unitMin);
      return fc
        .integer({ min: low, max: high })
        .map((k) => (decimals === 0 ? k * unitMin : Number((k * unitMin).toFixed(decimals))));
    }
    return fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
  }

  private array(schema: JsonSchemaObject, refDepth: number): fc.Arbitrary<unknown[]> {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
    const minItems = numberOr(schema.minItems, 0);
    const maxItems = numberOr(schema.maxItems, Math.max(minItems, prefix.length + this.maxItems));
    const items = schema.items as JsonSchema | undefined;
    // A recursive schema (items by $ref) that went deep enough: the arrays end here.
    const cutOff =
      typeof items === 'object' && typeof items.$ref === 'string' && refDepth >= this.maxRefDepth;
    const head = fc.tuple(...prefix.map((item) => this.translate(item, refDepth)));
    if (
      items === false ||
      (items === undefined && prefix.length > 0) ||
      (cutOff && minItems <= prefix.length)
    )
      return head;
    const rest = fc.array(this.translate(items ?? true, refDepth), {
      minLength: Math.max(0, minItems - prefix.length),
      maxLength: Math.min(
        Math.max(0, maxItems - prefix.length),
        Math.max(0, minItems - prefix.length) + this.maxItems,
      ),
    });
    return fc.tuple(head, rest).map(([first, more]) => [...first, ...more]);
  }

  private object(schema: JsonSchemaObject, refDepth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) {
      shape[name] =
        (Object.hasOwn(this.properties, name) ? this.properties[name] : undefined) ??
        this.translate(property, refDepth);
    }
    // A required property the schema does not describe: any value.
    for (const name of required) shape[name] ??= fc.jsonValue();
    const known = fc.record(shape, { requiredKeys: [...required] });

    const additional = schema.additionalProperties as JsonSchema | undefined;
    if (additional === undefined || additional === false)
      return known as fc.Arbitrary<Record<string, unknown>>;
    // Extra keys: from `propertyNames` when given, never one of the declared properties.
    const names =
      schema.propertyNames === undefined
        ? fc.string({ minLength: 1, maxLength: 12 })
        : (this.translate(schema.propertyNames as JsonSchema, refDepth) as fc.Arbitrary<string>);
    const minProperties = numberOr(schema.minProperties, 0);
    const maxProperties = numberOr(schema.maxProperties, minProperties + this.maxItems);
    const extra = fc.dictionary(
      names.filter((name) => !(name in properties) && name !== '__proto__'),
      this.translate(additional, refDepth),
      { minKeys: minProperties, maxKeys: Math.min(maxProperties, minProperties + this.maxItems) },
    );
    return fc.tuple(known, extra).map(([declared, more]) => ({ ...more, ...declared }));
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

function decimalsOf(step: number): number {
  if (Number.isInteger(step)) return 0;
  const text = step.toString();
  const exponent = /e-(\d+)$/.exec(text);
  if (exponent) return Number(exponent[1]);
  return text.split('.')[1]?.length ?? 0;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

/**
 * The conjunction of simple schemas (allOf, or a $ref with siblings): properties merged, required
 * joined, the tighter of each bound. Good enough for what zod writes (intersections of objects).
 */
export function mergeAll(schemas: JsonSchema[]): JsonSchemaObject {
  const merged: JsonSchemaObject = {};
  for (const schema of schemas) {
    if (schema === true) continue;
    if (schema === false) throw new UnsupportedSchemaError('allOf with `false` has no valid value');
    for (const [keyword, value] of Object.entries(schema)) {
      const current = merged[keyword];
      if (current === undefined) merged[keyword] = value;
      else if (keyword === 'properties') merged[keyword] = { ...(current as object), ...(value as object) };
      else if (keyword === 'required')
        merged[keyword] = [...new Set([...(current as string[]), ...(value as string[])])];
      else if (LOWER_BOUNDS.includes(keyword) && typeof value === 'number')
        merged[keyword] = Math.max(current as number, value);
      else if (UPPER_BOUNDS.includes(keyword) && typeof value === 'number')
        merged[keyword] = Math.min(current as number, value);
      else merged[keyword] = value;
    }
  }
  return merged;
}
