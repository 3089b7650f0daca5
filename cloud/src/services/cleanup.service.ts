import {
  ACTIVE_BOOKING_STATUSES,
  BOOKING_STATUSES,
  REFUND_OWED_STATUSES,
  type BookingStatus,
  type CleanupFilter,
  type CleanupKept,
  type CleanupPreview,
  type CleanupResult,
  type CleanupStats,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import type { CleanupCandidate, CleanupMatch, CleanupSelection } from '../store/booking-admin.repository';
import type { Store } from '../store/store';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';

const DAY_MS = 86_400_000;
/** The stats card reads "older than 30 days" (admin spec §9). */
const STATS_AGE_DAYS = 30;

function byStatusOrder<T extends { status: string }>(items: T[]): T[] {
  return [...items].sort(
    (a, b) =>
      BOOKING_STATUSES.indexOf(a.status as (typeof BOOKING_STATUSES)[number]) -
      BOOKING_STATUSES.indexOf(b.status as (typeof BOOKING_STATUSES)[number]),
  );
}

/**
 * Never deleted while their period is not over: paid bookings (takings, the PIN on the locker),
 * those owed a refund, and holds still holding lockers. Once over, they are history like the rest.
 */
const KEPT_UNTIL_ENDED: readonly BookingStatus[] = [...ACTIVE_BOOKING_STATUSES, ...REFUND_OWED_STATUSES];

function summarise(candidates: CleanupCandidate[]): CleanupPreview {
  const counts = new Map<string, number>();
  for (const c of candidates) counts.set(c.status, (counts.get(c.status) ?? 0) + c.rows);
  return {
    totalBookings: candidates.reduce((sum, c) => sum + c.rows, 0),
    totalTransactions: candidates.length,
    statusBreakdown: byStatusOrder(
      [...counts].map(([status, count]) => ({
        status: status as CleanupPreview['statusBreakdown'][number]['status'],
        count,
      })),
    ),
  };
}

function keptOf(match: CleanupMatch): CleanupKept {
  return { ...summarise(match.kept), reason: 'not_ended' };
}

/**
 * "Gestione Database": counts and deletes old bookings. Counts are booking-list rows (one per
 * locker), as the bookings screen shows them; transactions are whole bookings. Bookings whose
 * period is not over and that are paid, owed a refund or holding lockers are never deleted; the
 * answers say how many the filter matched but kept. A deleted booking whose period was not over
 * is announced (`booking.deleted`) so a PIN of its still on a controller is taken off; one whose
 * period is over has none there (the controller drops a booking at its end).
 */
export class CleanupService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly activity: AdminActivityLog,
    private readonly events: DomainEvents,
  ) {}

  #selection(filter: CleanupFilter): CleanupSelection {
    const now = this.clock.now();
    return {
      statuses: filter.statuses,
      createdBefore: new Date(now.getTime() - filter.olderThanDays * DAY_MS),
      excludeWithLocker: filter.excludeWithLocker,
      // Money owed back stays on record until it is refunded, however old the booking.
      keep: { statuses: KEPT_UNTIL_ENDED, endingAfter: now, always: REFUND_OWED_STATUSES },
    };
  }

  async preview(filter: CleanupFilter): Promise<CleanupPreview> {
    const match = await this.store.bookingAdmin.cleanupCandidates(this.#selection(filter));
    return { ...summarise(match.selected), kept: keptOf(match) };
  }

  async execute(actor: AdminIdentity, filter: CleanupFilter): Promise<CleanupResult> {
    const deletion = await this.store.bookingAdmin.deleteSelected(this.#selection(filter));
    for (const booking of deletion.unended) this.events.emit({ type: 'booking.deleted', ...booking });
    const deleted = summarise(deletion.selected);
    const kept = keptOf(deletion);
    await this.activity.record(
      actor,
      'admin/cleanup_executed',
      `Pulizia database: ${deleted.totalBookings} righe, ${deleted.totalTransactions} transazioni eliminate ` +
        `(stati ${filter.statuses.join(', ')}, più vecchie di ${filter.olderThanDays} giorni` +
        `${filter.excludeWithLocker ? ', senza locker' : ''})` +
        (kept.totalTransactions > 0
          ? `; ${kept.totalTransactions} transazioni tenute perché pagate o attive e non ancora terminate`
          : ''),
    );
    return { deletedRows: deleted.totalBookings, totalTransactions: deleted.totalTransactions, kept };
  }

  async stats(): Promise<CleanupStats> {
    const byStatus = await this.store.bookingAdmin.rowsByStatus();
    const old = await this.store.bookingAdmin.rowsCreatedBefore(
      new Date(this.clock.now().getTime() - STATS_AGE_DAYS * DAY_MS),
    );
    return {
      totalBookings: byStatus.reduce((sum, s) => sum + s.rows, 0),
      oldBookings: { count: old },
      byStatus: byStatusOrder(byStatus).map((s) => ({ STATUS: s.status, count: s.rows })),
    };
  }
}
