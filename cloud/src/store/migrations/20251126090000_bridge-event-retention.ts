import type { Kysely } from 'kysely';
import { createIndex } from '../migration-schema';

// The hub's sweep deletes bridge events past their retention (issue 14: a bridge must not be able
// to grow the store for ever); the deletion goes by when an event was stored.

export async function up(db: Kysely<unknown>): Promise<void> {
  await createIndex(db, 'bridge_events_received_idx', 'bridge_events', ['received_at']);
}
