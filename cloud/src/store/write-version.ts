import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Counts this process's writes to the store, so a cache of answers computed from the store can tell
 * it may be stale. Every statement that is not a plain select counts (inserts, updates, deletes, raw
 * SQL such as `commit`, PostgreSQL's reservation function), both when it is sent and when it has run,
 * so a reader that started before a write ended never keeps its answer past it. Conservative: a raw
 * read also counts, which only costs a cache miss. Writes by other processes are not seen here: such
 * caches also bound how long an answer lives.
 */
export class WriteVersionPlugin implements KyselyPlugin {
  #version = 0;
  readonly #writes = new WeakSet<object>();

  get version(): number {
    return this.#version;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== 'SelectQueryNode') {
      this.#version += 1;
      this.#writes.add(args.queryId);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#writes.has(args.queryId)) this.#version += 1;
    return args.result;
  }
}
