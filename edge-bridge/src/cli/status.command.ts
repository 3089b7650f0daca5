// `edge-bridge status`: what the running daemon reports, or what the buffer holds when it is not running.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { bufferPath, type BridgeConfig } from '../env';
import type { HealthReport } from '../status-server';
import { CliError, EXIT, requireConfig } from './cli-io';
import { formatAge, formatJson } from './output';
import type { CommandContext } from './cli-io';
import { DAEMON_STATE_FILE, type DaemonStateFile } from './run.command';
import { discard, httpCall, readText } from '../http-client';
import { loadBuffer } from './lazy-modules';

interface StatusOptions {
  json?: boolean;
}

export function registerStatusCommand(program: Command, { io, exit }: CommandContext): void {
  program
    .command('status')
    .description(
      'show link, buffer and controller status (exit 1 when degraded or the daemon is not running)',
    )
    .option('--json', 'print JSON')
    .action(async (options: StatusOptions, command: Command) => {
      const { config } = requireConfig(io, command);
      const health = await fetchHealth(config);
      if (health) {
        if (options.json) io.stdout(formatJson({ source: 'daemon', ...health }));
        else io.stdout(describeHealth(health));
        if (health.status !== 'ok') exit.code = EXIT.failure;
        return;
      }
      const path = bufferPath(config);
      if (!existsSync(path))
        throw new CliError(`the daemon is not running and there is no buffer at ${path} yet`);
      const { BridgeBuffer } = await loadBuffer();
      const buffer = BridgeBuffer.open(path);
      try {
        const stats = buffer.stats();
        const now = Date.now();
        const oldest = stats.outbox.oldestCreatedAt;
        const report = {
          source: 'buffer' as const,
          daemonRunning: false,
          link: { up: false },
          buffer: {
            depth: stats.outbox.total,
            results: stats.outbox.results,
            events: stats.outbox.events,
            snapshots: stats.outbox.snapshots,
            oldestBufferedAt: oldest === null ? null : new Date(oldest).toISOString(),
            oldestAgeSeconds: oldest === null ? null : Math.round((now - oldest) / 1000),
          },
          commands: stats.commands,
        };
        if (options.json) io.stdout(formatJson(report));
        else {
          io.stdout(
            [
              'Daemon:      not running (read from the buffer)',
              `Buffered:    ${report.buffer.depth} (${report.buffer.results} results, ${report.buffer.events} events, ${report.buffer.snapshots} snapshots)`,
              `Oldest item: ${report.buffer.oldestBufferedAt ?? '-'} (${formatAge(report.buffer.oldestAgeSeconds)} old)`,
              `Commands:    ${describeCommands(report.commands)}`,
              '',
            ].join('\n'),
          );
        }
        exit.code = EXIT.failure;
      } finally {
        buffer.close();
      }
    });
}

async function fetchHealth(config: BridgeConfig): Promise<HealthReport | null> {
  const stateFile = join(config.dataDir, DAEMON_STATE_FILE);
  let host = config.http.host;
  let port = config.http.port;
  if (existsSync(stateFile)) {
    try {
      const state = JSON.parse(readFileSync(stateFile, 'utf8')) as DaemonStateFile;
      host = state.httpHost;
      port = state.httpPort;
    } catch {
      // A half-written file: fall back to the configured port.
    }
  }
  if (port === 0) return null;
  try {
    const signal = AbortSignal.timeout(2_000);
    const response = await httpCall(`http://${host}:${port}/healthz`, { signal });
    // 503: the daemon runs but its controller is unhealthy; the body is the same report.
    if (response.statusCode !== 200 && response.statusCode !== 503) {
      discard(response.body);
      return null;
    }
    return JSON.parse(await readText(response.body)) as HealthReport;
  } catch {
    return null;
  }
}

function describeLink(link: HealthReport['link']): string {
  if (link.up) return `up since ${link.connectedSince}`;
  if (link.state === 'open') return `connected since ${link.connectedSince}, not yet accepted by the cloud`;
  return `down (${link.state}${link.lastError ? `: ${link.lastError}` : ''})`;
}

function describeHealth(h: HealthReport): string {
  return [
    `Status:      ${h.status} (location ${h.locationKey}, bridge ${h.bridgeVersion})`,
    ...(h.problems ?? []).map((problem) => `  problem:   ${problem}`),
    `Link:        ${describeLink(h.link)}`,
    `Buffered:    ${h.buffer.depth} (${h.buffer.results} results, ${h.buffer.events} events, ${h.buffer.snapshots} snapshots)`,
    `Oldest item: ${h.buffer.oldestBufferedAt ?? '-'} (${formatAge(h.buffer.oldestAgeSeconds)} old)`,
    `Last poll:   ${h.controller.lastPollAt ?? 'never'} ${h.controller.lastPollOk === false ? `FAILED: ${h.controller.lastPollError}` : h.controller.lastPollOk ? 'ok' : ''}`.trimEnd(),
    `Controller:  ${h.controller.latencyMs === null ? 'no answer yet' : `${h.controller.latencyMs} ms last request`}`,
    `Commands:    ${describeCommands(h.commands)}`,
    '',
  ].join('\n');
}

function describeCommands(commands: Record<string, number>): string {
  const parts = Object.entries(commands)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status.toLowerCase()}`);
  return parts.length ? parts.join(', ') : 'none';
}
