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
  | 'admin/alert_acknowledged'
  | 'admin/bridge_token_issued'
  | 'admin/bridge_token_revoked';

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
    const text = `${message} (da ${actor.email})`.slice(0, 4000);
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
