import {
  computeMonthlyTakings,
  DEFAULT_CONTROLLER_PORT,
  monthBoundsUtc,
  toTotemRevenueRecord,
  type ConnectionTestReport,
  type LocationConnection,
  type LocationTimezone,
  type MonthlyTakingsReport,
  type TakingsLocationConnection,
  type TotemRevenueRecord,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import type { PromotecTakings } from '../takings/promotec-client';

/** A location as the takings see it: its zone for the days, its kiosk's address for the totem. */
export interface TakingsSite extends TakingsLocationConnection {
  zone: LocationTimezone;
}

export interface TakingsServiceOptions {
  store: Store;
  clock: Clock;
  promotec: PromotecTakings;
  /**
   * How long a month that is not over yet in every zone it covers (or whose kiosks could not all
   * be read) is served from memory. Finished, complete months stay until a forced reload.
   */
  runningMonthTtlMs?: number;
  /** Oldest reports are dropped beyond this many (months × location choices). */
  maxCachedReports?: number;
}

export const RUNNING_MONTH_TTL_MS = 60_000;
const MAX_CACHED_REPORTS = 240;
const NOT_CONFIGURED = 'indirizzo del sistema Promotec non configurato';
/** Kept within the answer's bound on a reason; a kiosk's own text can be long. */
const MAX_REASON_LENGTH = 300;

interface CachedReport {
  report: Promise<MonthlyTakingsReport>;
  /** Epoch ms after which the report is read again; Infinity while it is being read. */
  expiresAt: number;
}

function toSite(location: LocationRecord): TakingsSite {
  return {
    key: location.key,
    name: location.name,
    // Zones are validated against the allowed list when a location is saved.
    zone: location.zone as LocationTimezone,
    recipient: location.controller.recipient || null,
    port: location.controller.port ?? DEFAULT_CONTROLLER_PORT,
  };
}

function hasKiosk<Site extends TakingsLocationConnection>(site: Site): site is Site & LocationConnection {
  return site.recipient !== null;
}

/**
 * The monthly takings page's figures: online takings from the store combined with each location's
 * kiosk (totem) payments, computed by protocol's `computeMonthlyTakings`, and kept in memory per
 * month and location choice (the kiosks are slow, remote systems) until a forced reload — except a
 * month still running, or read while a kiosk failed, which is kept only briefly.
 */
export class TakingsService {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly promotec: PromotecTakings;
  private readonly runningMonthTtlMs: number;
  private readonly maxCachedReports: number;
  private readonly cache = new Map<string, CachedReport>();

  constructor(options: TakingsServiceOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.promotec = options.promotec;
    this.runningMonthTtlMs = options.runningMonthTtlMs ?? RUNNING_MONTH_TTL_MS;
    this.maxCachedReports = options.maxCachedReports ?? MAX_CACHED_REPORTS;
  }

  /** Every location, in the store's order (by key). */
  async sites(): Promise<TakingsSite[]> {
    return (await this.store.locations.list()).map(toSite);
  }

  /** The takings of `month` for one location (`key`) or every location (`'all'`). */
  async monthlyTakings(request: {
    month: string;
    location: string;
    reload?: boolean;
  }): Promise<MonthlyTakingsReport> {
    const cacheKey = `${request.month}|${request.location}`;
    const cached = this.cache.get(cacheKey);
    if (!request.reload && cached && cached.expiresAt > this.clock.now().getTime()) return cached.report;

    const entry: CachedReport = {
      expiresAt: Infinity,
      report: this.computeReport(request.month, request.location).then(({ report, complete }) => {
        entry.expiresAt = complete ? Infinity : this.clock.now().getTime() + this.runningMonthTtlMs;
        return report;
      }),
    };
    this.cache.delete(cacheKey);
    this.cache.set(cacheKey, entry);
    this.evictOldest();
    // A failed read is not kept: the next call tries again.
    entry.report.catch(() => {
      if (this.cache.get(cacheKey) === entry) this.cache.delete(cacheKey);
    });
    return entry.report;
  }

  /** A location's kiosk payments of `month` in the spec's record shape; `[]` (logged) when its kiosk fails. */
  async totemProceeds(locationKey: string, month: string): Promise<TotemRevenueRecord[]> {
    const site = toSite(await this.requireLocation(locationKey));
    if (!hasKiosk(site)) return [];
    return (await this.promotec.fetchMonthProceeds(site, month)).map(toTotemRevenueRecord);
  }

  /** Tests one location's kiosk connection, or every location's one after another. */
  async testConnections(locationKey?: string): Promise<ConnectionTestReport[]> {
    const sites = locationKey ? [toSite(await this.requireLocation(locationKey))] : await this.sites();
    const reports: ConnectionTestReport[] = [];
    for (const { zone: _zone, ...site } of sites) {
      if (!hasKiosk(site)) {
        reports.push({ ...site, success: false, error: NOT_CONFIGURED });
        continue;
      }
      const { success, error } = await this.promotec.testConnection(site);
      reports.push({ ...site, success, ...(error === undefined ? {} : { error }) });
    }
    return reports;
  }

  private async requireLocation(key: string): Promise<LocationRecord> {
    const location = await this.store.locations.get(key);
    if (!location) throw new AppError('location/not_found', `No location '${key}'`);
    return location;
  }

  /**
   * The report, and whether it is final: the month is over in every zone and every kiosk answered.
   * A location whose kiosk could not be read (or has no address to read it at) is reported with
   * its totem missing and the reason, never as a complete month with less money.
   */
  private async computeReport(
    month: string,
    locationChoice: string,
  ): Promise<{ report: MonthlyTakingsReport; complete: boolean }> {
    const all = await this.sites();
    const sites = locationChoice === 'all' ? all : all.filter((site) => site.key === locationChoice);
    if (sites.length === 0) throw new AppError('location/not_found', `No location '${locationChoice}'`);

    // One range covering the month in every zone involved; computeMonthlyTakings keeps each
    // location's own month, so what the wider range brings in is dropped there.
    const bounds = [...new Set(sites.map((site) => site.zone))].map((zone) => monthBoundsUtc(month, zone));
    const fromUtc = new Date(Math.min(...bounds.map((bound) => Date.parse(bound.fromUtc))));
    const toUtc = new Date(Math.max(...bounds.map((bound) => Date.parse(bound.toUtc))));

    const keys = sites.map((site) => site.key);
    const [online, tests, refunds, totem] = await Promise.all([
      this.store.takings.onlineTakingsCreatedBetween(keys, fromUtc, toUtc),
      this.store.takings.testBookingsCreatedBetween(keys, fromUtc, toUtc),
      this.store.takings.refundsMadeBetween(keys, fromUtc, toUtc),
      this.promotec.totemMonth(sites.filter(hasKiosk), month),
    ]);
    const totemMissing: Record<string, string> = {};
    for (const site of sites) if (!hasKiosk(site)) totemMissing[site.key] = NOT_CONFIGURED;
    for (const { key, reason } of totem.failures) totemMissing[key] = reason.slice(0, MAX_REASON_LENGTH);
    const report = computeMonthlyTakings({
      month,
      locations: sites.map(({ key, name, zone }) => ({ key, name, zone })),
      bookings: [...online, ...tests],
      refunds,
      totem: totem.proceeds,
      totemMissing,
    });

    // Incomplete months are read again soon: a kiosk back up (or an address configured) shows.
    const complete = this.clock.now().getTime() >= toUtc.getTime() && Object.keys(totemMissing).length === 0;
    return { report, complete };
  }

  private evictOldest(): void {
    while (this.cache.size > this.maxCachedReports) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) return;
      this.cache.delete(oldest);
    }
  }
}
