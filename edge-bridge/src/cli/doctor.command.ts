// `edge-bridge doctor`: checks a site's setup end to end and says what to fix.
import { accessSync, constants, existsSync } from 'node:fs';
import type { Command } from 'commander';
import { ControllerClient } from '../controller/controller-client';
import { ControllerError } from '../controller/controller-errors';
import { bufferPath, loadBridgeConfig, type BridgeConfig } from '../env';
import { EXIT, globalOptions } from './cli-io';
import { formatJson } from './output';
import type { CommandContext } from './cli-io';
import { discard, httpCall } from '../http-client';
import { loadBuffer, loadLink } from './lazy-modules';
import {
  checkDiskSpace,
  checkServiceUnit,
  checkTimeSync,
  systemProbe,
  type Check,
  type Verdict,
} from './site-checks';

/** Beyond this the bridge and the cloud disagree on command expiry. */
const SKEW_FAIL_MS = 30_000;
const SKEW_WARN_MS = 5_000;
const MARK: Record<Verdict, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

export function registerDoctorCommand(program: Command, { io, exit }: CommandContext): void {
  program
    .command('doctor')
    .description('check config, buffer, disk, controller, cloud, clock, time sync and the service unit')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const checks: Check[] = [];
      const loaded = loadBridgeConfig({ path: globalOptions(command).config, env: io.env });
      if (!loaded.ok) {
        checks.push({
          name: 'config',
          verdict: 'fail',
          // One problem a line: a missing file brings one for each value it would have given.
          detail: [`${loaded.path}:`, ...loaded.problems.map((problem) => `- ${problem}`)].join('\n'),
        });
      } else {
        checks.push({ name: 'config', verdict: 'ok', detail: loaded.path });
        const { config } = loaded;
        checks.push(await checkBuffer(config));
        checks.push(checkDiskSpace(config.dataDir, systemProbe));
        checks.push(await checkController(config));
        checks.push(...(await checkCloud(config)));
        checks.push(checkTimeSync(systemProbe));
      }
      checks.push(checkServiceUnit(systemProbe));
      if (options.json) io.stdout(formatJson({ ok: checks.every((c) => c.verdict !== 'fail'), checks }));
      else
        for (const c of checks)
          io.stdout(`${MARK[c.verdict]} ${c.name.padEnd(12)} ${indentLines(c.detail)}\n`);
      if (checks.some((c) => c.verdict === 'fail')) exit.code = EXIT.failure;
    });
}

/** A detail of several lines, its next lines under its first (after the mark and the name). */
function indentLines(detail: string): string {
  return detail.replaceAll('\n', `\n${' '.repeat(15)}`);
}

async function checkBuffer(config: BridgeConfig): Promise<Check> {
  const path = bufferPath(config);
  try {
    if (existsSync(path)) accessSync(path, constants.W_OK);
    const { BridgeBuffer } = await loadBuffer();
    const buffer = BridgeBuffer.open(path);
    const { outbox } = buffer.stats();
    buffer.close();
    return { name: 'buffer', verdict: 'ok', detail: `${path} (${outbox.total} item(s) waiting)` };
  } catch (error) {
    return { name: 'buffer', verdict: 'fail', detail: `${path}: ${message(error)}` };
  }
}

async function checkController(config: BridgeConfig): Promise<Check> {
  const { recipient, port } = config.controller;
  const controller = new ControllerClient({
    ...config.controller,
    timeoutMs: Math.min(config.controller.timeoutMs, 10_000),
  });
  try {
    const lockers = await controller.getLockersState();
    return {
      name: 'controller',
      verdict: 'ok',
      detail: `${recipient}:${port} answered in ${controller.lastLatencyMs} ms, ${lockers.length} lockers`,
    };
  } catch (error) {
    const hint =
      error instanceof ControllerError && error.code === 'controller/rejected'
        ? ' (check key and mastercode)'
        : '';
    return { name: 'controller', verdict: 'fail', detail: `${recipient}:${port}: ${message(error)}${hint}` };
  }
}

async function checkCloud(config: BridgeConfig): Promise<Check[]> {
  const { bridgeSocketUrl } = await loadLink();
  const socketUrl = bridgeSocketUrl(config.cloudUrl);
  const httpUrl = socketUrl.replace(/^ws/, 'http');
  const sentAt = Date.now();
  let date: string | undefined;
  try {
    const response = await httpCall(httpUrl, { signal: AbortSignal.timeout(10_000) });
    discard(response.body);
    const header = response.headers.date;
    date = Array.isArray(header) ? header[0] : header;
  } catch (error) {
    return [{ name: 'cloud', verdict: 'fail', detail: `${httpUrl}: ${message(error)}` }];
  }
  const checks: Check[] = [{ name: 'cloud', verdict: 'ok', detail: `${httpUrl} reachable` }];
  if (!date || Number.isNaN(Date.parse(date))) {
    checks.push({
      name: 'clock',
      verdict: 'warn',
      detail: 'the cloud sent no Date header; clock skew not checked',
    });
    return checks;
  }
  // The Date header has one-second resolution: compare with the middle of the round trip.
  const local = (sentAt + Date.now()) / 2;
  const skew = Math.round(local - Date.parse(date));
  const verdict: Verdict =
    Math.abs(skew) > SKEW_FAIL_MS ? 'fail' : Math.abs(skew) > SKEW_WARN_MS ? 'warn' : 'ok';
  checks.push({
    name: 'clock',
    verdict,
    detail: `this machine is ${Math.abs(Math.round(skew / 1000))} s ${skew >= 0 ? 'ahead of' : 'behind'} the cloud${verdict === 'ok' ? '' : ' (fix NTP: command expiry depends on it)'}`,
  });
  return checks;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
