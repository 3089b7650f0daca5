import { sql, type RawBuilder } from 'kysely';

// "Contains this text, in any case" the same way on both stores: SQLite's LIKE ignores ASCII case
// and has no escape character unless told; PostgreSQL's LIKE minds case and escapes with `\`. So
// both sides are lower-cased and the escape is named.

/** The LIKE escape character. */
const LIKE_ESCAPE = '\\';

/** `text` as a LIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally. */
export function containing(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `${LIKE_ESCAPE}${c}`)}%`;
}

/** `lower(expression) LIKE pattern`, with the escape character of `containing`. */
export function likeLower(expression: RawBuilder<unknown>, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${expression}) like ${pattern} escape ${sql.lit(LIKE_ESCAPE)}`;
}
