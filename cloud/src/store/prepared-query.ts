import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

// Kysely builds and compiles a query's SQL on every call; on the hottest reads and writes that was a
// tenth of a call (availability and reservation benchmarks). A prepared query is built once per
// dialect with placeholders standing for its parameters, and each call only fills them in. The SQL is
// then prepared once by the driver too (the SQLite adapter caches statements by their text).

/** Stands for a named parameter while the query is built; replaced by the value at each call. */
class Placeholder {
  constructor(readonly name: string) {}
}

type Slot = { name: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  slots: Slot[];
}

/**
 * A query whose shape never changes, only its values, on one database. `build` receives a stand-in
 * for each parameter and must use each only as a value (`where(col, '=', p.x)`, `values({ col: p.x })`),
 * never to decide the query's shape: it runs once, at the first call, not once per call.
 */
export class PreparedQuery<DB, Params extends Record<string, unknown>, Row> {
  #compiled: Compiled | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly names: ReadonlyArray<keyof Params & string>,
    private readonly build: (db: Kysely<DB>, params: Params) => Compilable<Row>,
  ) {}

  /** Runs it with these values, on the database or on one of its transactions. */
  execute(params: Params, executor: Kysely<DB> = this.db): Promise<QueryResult<Row>> {
    return executor.executeQuery<Row>(this.withValues(params));
  }

  /** The compiled query with these values, to run elsewhere (SQLite's synchronous steps). */
  withValues(params: Params): CompiledQuery<Row> {
    const compiled = this.compiled();
    const parameters = compiled.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.value));
    return { ...(compiled.query as CompiledQuery<Row>), parameters };
  }

  /** The rows. */
  async rows(params: Params, executor: Kysely<DB> = this.db): Promise<Row[]> {
    return (await this.execute(params, executor)).rows;
  }

  private compiled(): Compiled {
    if (this.#compiled) return this.#compiled;
    const stand = Object.fromEntries(this.names.map((name) => [name, new Placeholder(name)])) as Params;
    const query = this.build(this.db, stand).compile();
    const slots = query.parameters.map((value): Slot =>
      value instanceof Placeholder ? { name: value.name } : { value },
    );
    const used = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
    const unused = this.names.filter((name) => !used.has(name));
    if (unused.length > 0) throw new Error(`Prepared query does not use ${unused.join(', ')} as values`);
    this.#compiled = { query, slots };
    return this.#compiled;
  }
}
