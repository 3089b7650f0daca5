import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Store } from '../store/store';
import { CloudMetrics, type BookingCountSource } from './metrics';
import { sendJson } from '../json-answer';
import { requireMetricsToken } from './metrics-token';
import { checkReadiness, type ReadinessCheck } from './readiness';

export interface ObservabilityOptions {
  logger: Logger;
  bookings: BookingCountSource;
  /** What must answer before the cloud takes traffic (the store, its migrations). */
  readiness: readonly ReadinessCheck[];
  /** Bearer token `/metrics` requires; null closes it, except in a demo. */
  metricsToken: string | null;
  /** DEMO=1: without a token, `/metrics` stays open. */
  demo: boolean;
}

export interface Observability {
  metrics: CloudMetrics;
  /** Adds `GET /readyz` and `GET /metrics` to `router`. */
  routes(router: Router): void;
}

export function createObservability(options: ObservabilityOptions): Observability {
  const { logger } = options;
  const metrics = new CloudMetrics({ bookings: options.bookings, logger });
  return { metrics, routes: (router) => useObservabilityRoutes(router, options, metrics) };
}

function useObservabilityRoutes(router: Router, options: ObservabilityOptions, metrics: CloudMetrics): void {
  const { logger } = options;
  // Readiness, not liveness (`/healthz`): a failing store makes the cloud unready, not dead.
  router.get('/readyz', async (_req, res) => {
    const { ready, checks, failures } = await checkReadiness(options.readiness);
    for (const { name, error } of failures)
      logger.warn({ err: error, check: name }, 'readiness check failed');
    sendJson(res, ready ? 200 : 503, { status: ready ? 'ready' : 'unavailable', checks });
  });

  router.get(
    '/metrics',
    requireMetricsToken(options.metricsToken, { demo: options.demo }),
    async (_req, res) => {
      const { contentType, body } = await metrics.exposition();
      res.setHeader('Content-Type', contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(body);
    },
  );
}

/**
 * The store is ready when it answers and its schema is current. Migrations only ever move forward,
 * so once none is pending that answer is kept and later probes cost one `select 1`.
 */
export function storeReadinessChecks(store: Pick<Store, 'ping' | 'pendingMigrations'>): ReadinessCheck[] {
  let migrated = false;
  return [
    { name: 'store', check: () => store.ping() },
    {
      name: 'migrations',
      async check() {
        if (migrated) return;
        const pending = await store.pendingMigrations();
        if (pending.length > 0) throw new Error(`migrations not run: ${pending.join(', ')}`);
        migrated = true;
      },
    },
  ];
}
