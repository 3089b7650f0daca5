import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { Store } from '../store/store';
import type { AdminIdentity } from './auth.service';

/** Kinds of operator actions written to the error/activity log (the "Log Errori" screen lists them). */
export type AdminActivityType =
  | 'admin/user_created'
  | 'admin/user_password_changed'
  | 'admin/user_removed'
  | 'admin/location_created'
  | 'admin/location_updated'
  | 'admin/location_deleted'
  | 'admin/locations_bulk_updated'
  | 'admin/discount_created'
  | 'admin/discount_updated'
  | 'admin/discount_deleted'
  | 'admin/settings_updated'
  | 'admin/cleanup_executed'
  | 'admin/test_booking_created'
  | 'admin/morning_scheduler_run'
  | 'admin/locker_command'
  | 'admin/booking_cancelled'
  | 'admin/booking_refunded'
  | 'admin/booking_email_resent'
  | 'admin/booking_moved'
  | 'admin/booking_extended'
  | 'admin/alert_acknowledged'
  | 'admin/bridge_token_issued'
  | 'admin/bridge_token_revoked';

/** The longest before/after description kept in one entry (the entry itself is cut at 4,000). */
const CHANGES_MAX = 2_000;

function flatten(value: unknown, path: string, into: Map<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, path ? `${path}.${key}` : key, into);
    return;
  }
  into.set(path, value instanceof Date ? value.toISOString() : JSON.stringify(value ?? null));
}

/**
 * What an edit changed, for the audit trail: each field (by its path) whose value differs, as
 * `path: before → after`, `; `-separated; fields only on one side show `–`. Empty when nothing
 * changed.
 */
export function describeChanges(before: unknown, after: unknown, ignore: readonly string[] = []): string {
  const was = new Map<string, string>();
  const now = new Map<string, string>();
  flatten(before, '', was);
  flatten(after, '', now);
  const paths = [...new Set([...was.keys(), ...now.keys()])].filter(
    (path) => !ignore.some((prefix) => path === prefix || path.startsWith(`${prefix}.`)),
  );
  const text = paths
    .filter((path) => was.get(path) !== now.get(path))
    .map((path) => `${path}: ${was.get(path) ?? '–'} → ${now.get(path) ?? '–'}`)
    .join('; ');
  return text.length > CHANGES_MAX ? `${text.slice(0, CHANGES_MAX - 1)}…` : text;
}

/** Records who did what; a failure to record is logged and never undoes the action itself. */
export class AdminActivityLog {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async record(
    actor: AdminIdentity,
    type: AdminActivityType,
    message: string,
    where: { locationKey?: string | null; lockerId?: number | null } = {},
  ): Promise<void> {
    // Who, and from which address (the client as this server sees it: TRUST_PROXY decides whether
    // a balancer's X-Forwarded-For counts).
    const from = actor.address ? `, indirizzo ${actor.address}` : '';
    const text = `${message} (da ${actor.email}${from})`.slice(0, 4000);
    this.logger.info({ activity: type, userId: actor.userId, locationKey: where.locationKey }, message);
    try {
      await this.store.errorLog.add({
        at: this.clock.now(),
        type,
        locationKey: where.locationKey ?? null,
        lockerId: where.lockerId ?? null,
        message: text,
      });
    } catch (error) {
      this.logger.error({ err: error, activity: type }, 'could not record admin activity');
    }
  }
}
