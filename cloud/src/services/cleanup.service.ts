import {
  BOOKING_STATUSES,
  type CleanupFilter,
  type CleanupPreview,
  type CleanupResult,
  type CleanupStats,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import type { CleanupCandidate, CleanupSelection } from '../store/booking-admin.repository';
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

/**
 * "Gestione Database": counts and deletes old bookings. Counts are booking-list rows (one per
 * locker), as the bookings screen shows them; transactions are whole bookings.
 */
export class CleanupService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly activity: AdminActivityLog,
  ) {}

  #selection(filter: CleanupFilter): CleanupSelection {
    return {
      statuses: filter.statuses,
      createdBefore: new Date(this.clock.now().getTime() - filter.olderThanDays * DAY_MS),
      excludeWithLocker: filter.excludeWithLocker,
    };
  }

  async preview(filter: CleanupFilter): Promise<CleanupPreview> {
    return summarise(await this.store.bookingAdmin.cleanupCandidates(this.#selection(filter)));
  }

  async execute(actor: AdminIdentity, filter: CleanupFilter): Promise<CleanupResult> {
    const deleted = summarise(await this.store.bookingAdmin.deleteSelected(this.#selection(filter)));
    await this.activity.record(
      actor,
      'admin/cleanup_executed',
      `Pulizia database: ${deleted.totalBookings} righe, ${deleted.totalTransactions} transazioni eliminate ` +
        `(stati ${filter.statuses.join(', ')}, più vecchie di ${filter.olderThanDays} giorni` +
        `${filter.excludeWithLocker ? ', senza locker' : ''})`,
    );
    return { deletedRows: deleted.totalBookings, totalTransactions: deleted.totalTransactions };
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
