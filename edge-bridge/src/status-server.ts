// The daemon's local status endpoints, for the technician's `status` and for monitoring:
// GET /healthz (JSON; 503 while the controller is unhealthy) and GET /metrics (Prometheus text
// format). Loopback only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommandStatus } from './buffer/bridge-buffer';
import type { LinkState } from './link/bridge-link';

export interface HealthReport {
  /** ok: linked to the cloud and the controller healthy; otherwise degraded (see `problems`). */
  status: 'ok' | 'degraded';
  /** Why the status is not ok, one line each (link, controller). */
  problems: string[];
  locationKey: string;
  bridgeVersion: string;
  now: string;
  link: {
    up: boolean;
    state: LinkState;
    connectedSince: string | null;
    lastError: string | null;
    reconnects: number;
  };
  controller: {
    /** False while the last poll or request got no proper answer, or polls are overdue: /healthz is 503. */
    healthy: boolean;
    problem: string | null;
    lastPollAt: string | null;
    lastPollOk: boolean | null;
    lastPollError: string | null;
    lastSuccessAt: string | null;
    latencyMs: number | null;
  };
  buffer: {
    depth: number;
    results: number;
    events: number;
    snapshots: number;
    oldestBufferedAt: string | null;
    oldestAgeSeconds: number | null;
  };
  commands: Record<CommandStatus, number>;
}

export function renderMetrics(health: HealthReport): string {
  const lines: string[] = [];
  const metric = (name: string, help: string, type: 'gauge' | 'counter', samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples)
      lines.push(`${name}${labels} ${Number.isFinite(value) ? value : 'NaN'}`);
  };
  const seconds = (iso: string | null) => (iso ? Date.parse(iso) / 1000 : NaN);
  metric(
    'deposito_bridge_link_up',
    "Whether the cloud holds this bridge's link, its hello accepted (1), or not (0).",
    'gauge',
    [['', health.link.up ? 1 : 0]],
  );
  metric(
    'deposito_bridge_link_reconnects_total',
    'Reconnection attempts since the daemon started.',
    'counter',
    [['', health.link.reconnects]],
  );
  metric(
    'deposito_bridge_queue_depth',
    'Buffered items waiting for the cloud to confirm delivery.',
    'gauge',
    [['', health.buffer.depth]],
  );
  metric('deposito_bridge_buffered_items', 'Buffered items by kind.', 'gauge', [
    ['{kind="result"}', health.buffer.results],
    ['{kind="event"}', health.buffer.events],
    ['{kind="snapshot"}', health.buffer.snapshots],
  ]);
  metric(
    'deposito_bridge_oldest_buffered_age_seconds',
    'Age of the oldest undelivered item (0 when empty).',
    'gauge',
    [['', health.buffer.oldestAgeSeconds ?? 0]],
  );
  metric('deposito_bridge_last_poll_timestamp_seconds', 'When the controller was last polled.', 'gauge', [
    ['', seconds(health.controller.lastPollAt)],
  ]);
  metric(
    'deposito_bridge_controller_healthy',
    'Whether the controller answers (1) or not (0): hung, failing or not polled.',
    'gauge',
    [['', health.controller.healthy ? 1 : 0]],
  );
  metric('deposito_bridge_last_poll_success', 'Whether the last controller poll succeeded.', 'gauge', [
    ['', health.controller.lastPollOk ? 1 : 0],
  ]);
  metric('deposito_bridge_controller_latency_seconds', 'Duration of the last controller request.', 'gauge', [
    ['', health.controller.latencyMs === null ? NaN : health.controller.latencyMs / 1000],
  ]);
  metric(
    'deposito_bridge_commands',
    'Commands remembered by the bridge, by status.',
    'gauge',
    Object.entries(health.commands).map(([status, n]) => [`{status="${status}"}`, n]),
  );
  return lines.join('\n') + '\n';
}

export async function startStatusServer(
  health: () => HealthReport,
  listen: { host: string; port: number },
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://bridge').pathname;
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'http/method_not_allowed', message: 'use GET' } }));
      return;
    }
    if (path === '/healthz') {
      // 503 when the controller cannot be relied on (doors would not open); the body says why.
      const report = health();
      res
        .writeHead(report.controller.healthy ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify(report));
    } else if (path === '/metrics') {
      res
        .writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' })
        .end(renderMetrics(health()));
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'http/not_found', message: `no route ${path}` } }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return { server, port: (server.address() as AddressInfo).port };
}
