import { toDateOrNull } from './values';

/**
 * Who saved an operator-edited row last, and its version (migration 20251125120000): every save
 * raises the version by one, and a save that names an older version is refused, changing nothing.
 */
export interface EditStamp {
  version: number;
  /** The operator's e-mail; null for rows not saved by an operator since versions exist. */
  updatedBy: string | null;
  updatedAt: Date | null;
}

/** The operator saving, and the version their page read (undefined: a client that sends none). */
export interface EditIntent {
  actor: string;
  expectedVersion: number | undefined;
}

/** An edit refused because the row changed since it was read: what it is now. */
export interface StaleEdit {
  ok: false;
  reason: 'stale';
  current: EditStamp;
}

export function toEditStamp(row: {
  version: number;
  updated_by: string | null;
  updated_at: Date | string | null;
}): EditStamp {
  return { version: Number(row.version), updatedBy: row.updated_by, updatedAt: toDateOrNull(row.updated_at) };
}

/** True when the intent names a version and the row is at another one. */
export function isStale(intent: EditIntent, current: { version: number }): boolean {
  return intent.expectedVersion !== undefined && intent.expectedVersion !== Number(current.version);
}
