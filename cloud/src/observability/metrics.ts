import { BOOKING_STATUSES, type BookingStatus } from '@deposito/protocol';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Bookings per status as the store holds them now. */
export interface BookingCountSource {
  countByStatus(): Promise<Record<BookingStatus, number>>;
}

/**
 * The bridge hub's figures (`BridgeHub` has these methods). A cloud without a hub has none: the
 * gauges then read zero bridges and no commands, the truth for a process nothing can connect to.
 */
export interface BridgeMetricsSource {
  /** Bridges connected to the cloud now (to any of its processes). */
  bridgesConnected(): number | Promise<number>;
  /** Commands in the outbox per status (queued, sent, acked, succeeded, …). */
  commandsByStatus(): Record<string, number> | Promise<Record<string, number>>;
  /** Seconds since the oldest command not yet settled was issued; 0 when none waits. */
  oldestPendingCommandAgeSeconds(): number | Promise<number>;
}

export const METRIC_NAMES = {
  httpDuration: 'deposito_http_request_duration_seconds',
  bookings: 'deposito_bookings',
  bridgesConnected: 'deposito_bridges_connected',
  bridgeCommands: 'deposito_bridge_commands',
  oldestPendingCommandAge: 'deposito_bridge_oldest_pending_command_age_seconds',
} as const;

/** From a few milliseconds (health checks, cached reads) to the bridge calls that wait on hardware. */
const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Label for requests no route answered (404s, static files): one series, not one per URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The pattern of the Express route that answered (`/api/bookings/:transactionId`), never the raw
 * URL, so the number of series stays bounded whatever paths clients send.
 */
export function routePatternOf(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route?.path === undefined) return UNMATCHED_ROUTE;
  return `${req.baseUrl}${String(route.path)}`;
}

export interface CloudMetricsOptions {
  bookings: BookingCountSource;
  logger: Logger;
}

/** The cloud's Prometheus registry: HTTP latency, bookings, bridge hub figures, process defaults. */
export class CloudMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private bridge: BridgeMetricsSource | null = null;

  constructor(options: CloudMetricsOptions) {
    const { registry } = this;
    collectDefaultMetrics({ register: registry });

    this.httpDuration = new Histogram({
      name: METRIC_NAMES.httpDuration,
      help: 'Time to answer HTTP requests, by method, route pattern and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [registry],
    });

    // A failing read (the store is down) leaves that figure out of the scrape, not the whole scrape.
    const guarded = (what: string, collect: () => Promise<void>) => async () => {
      try {
        await collect();
      } catch (error) {
        options.logger.warn({ err: error }, `metrics: could not read ${what}`);
      }
    };
    const fromBridge = <T>(read: (source: BridgeMetricsSource) => T | Promise<T>, none: T): Promise<T> =>
      Promise.resolve(this.bridge ? read(this.bridge) : none);

    /** A gauge of one figure, read afresh at each scrape. */
    const gaugeOf = (name: string, help: string, what: string, read: () => Promise<number>): void => {
      const gauge: Gauge = new Gauge({
        name,
        help,
        registers: [registry],
        collect: guarded(what, async () => {
          gauge.set(await read());
        }),
      });
    };
    /** A gauge of counts by status, read afresh at each scrape: every one of `statuses` (0 when none), else those read. */
    const gaugeByStatus = (
      name: string,
      help: string,
      what: string,
      read: () => Promise<Record<string, number>>,
      statuses?: readonly string[],
    ): void => {
      const gauge: Gauge<'status'> = new Gauge({
        name,
        help,
        labelNames: ['status'],
        registers: [registry],
        collect: guarded(what, async () => {
          gauge.reset();
          const counts = await read();
          for (const status of statuses ?? Object.keys(counts)) gauge.set({ status }, counts[status] ?? 0);
        }),
      });
    };

    gaugeByStatus(
      METRIC_NAMES.bookings,
      'Bookings in the store by status',
      'booking counts',
      () => options.bookings.countByStatus(),
      BOOKING_STATUSES,
    );
    gaugeOf(METRIC_NAMES.bridgesConnected, 'Edge bridges connected to the cloud', 'connected bridges', () =>
      fromBridge((source) => source.bridgesConnected(), 0),
    );
    gaugeByStatus(
      METRIC_NAMES.bridgeCommands,
      'Locker commands in the bridge outbox by status',
      'bridge commands',
      () => fromBridge((source) => source.commandsByStatus(), {}),
    );
    gaugeOf(
      METRIC_NAMES.oldestPendingCommandAge,
      'Age in seconds of the oldest locker command not settled yet (0 when none waits)',
      'the oldest pending command',
      () => fromBridge((source) => source.oldestPendingCommandAgeSeconds(), 0),
    );
  }

  /** Where the bridge gauges read from, once a hub runs. */
  useBridgeSource(source: BridgeMetricsSource): void {
    this.bridge = source;
  }

  /** Times every request; register it before the routes. */
  readonly recordHttpRequests: RequestHandler = (req, res, next) => {
    const stopTimer = this.httpDuration.startTimer();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      res.off('finish', record);
      res.off('close', record);
      stopTimer({
        method: KNOWN_METHODS.has(req.method) ? req.method : 'OTHER',
        route: routePatternOf(req),
        // A client that hung up before the answer was written has no status to speak of.
        status_class: res.writableFinished ? `${Math.floor(res.statusCode / 100)}xx` : 'aborted',
      });
    };
    res.on('finish', record);
    res.on('close', record);
    next();
  };

  /** The text exposition format Prometheus scrapes. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
