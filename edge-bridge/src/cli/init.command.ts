// `edge-bridge init`: writes the config file the daemon and the other commands read.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type * as z from 'zod/mini';
import { bridgeConfigSchema, configInputFromEnv, configPathFrom, writeBridgeConfig } from '../env';
import { CliError, EXIT, globalOptions, parsePort, parsePositiveInt } from './cli-io';
import type { CommandContext } from './cli-io';

interface InitOptions {
  cloudUrl?: string;
  location?: string;
  token?: string;
  recipient?: string;
  port?: number;
  key?: string;
  mastercode?: string;
  dataDir?: string;
  httpPort?: number;
  pollInterval?: number;
  force?: boolean;
}

export function registerInitCommand(program: Command, { io }: CommandContext): void {
  program
    .command('init')
    .description(
      'write the bridge config file (values not given as options are taken from BRIDGE_* variables)',
    )
    .option('--cloud-url <url>', 'cloud base URL, e.g. https://cloud.example.com ($BRIDGE_CLOUD_URL)')
    .option('--location <key>', 'location key this bridge serves ($BRIDGE_LOCATION_KEY)')
    .option(
      '--token <token>',
      'bridge token issued by the cloud ($BRIDGE_TOKEN; prefer the variable: options show in ps)',
    )
    .option('--recipient <host>', 'locker controller IP or host ($BRIDGE_CONTROLLER_RECIPIENT)')
    .option('--port <port>', 'locker controller port (default 11000)', parsePort)
    .option('--key <key>', 'locker controller key ($BRIDGE_CONTROLLER_KEY)')
    .option('--mastercode <code>', 'locker controller mastercode ($BRIDGE_CONTROLLER_MASTERCODE)')
    .option('--data-dir <dir>', 'folder for the offline buffer, relative to the config file (default ./data)')
    .option('--http-port <port>', 'local status port for /healthz and /metrics (default 8790)', parsePort)
    .option('--poll-interval <ms>', 'controller state poll interval in ms (default 5000)', parsePositiveInt)
    .option('-f, --force', 'overwrite an existing config file')
    .addHelpText(
      'after',
      [
        '',
        'The token: an administrator issues it for the location (it is shown once, and issuing a',
        'new one revokes the old), e.g.',
        '  curl -X POST -H "Authorization: Bearer <admin token>" \\',
        '       https://cloud.example.com/api/admin/locations/<key>/bridge-token',
        'then: BRIDGE_TOKEN=<token> edge-bridge init --cloud-url … --location <key> …',
      ].join('\n'),
    )
    .action((options: InitOptions, command: Command) => {
      const path = configPathFrom(globalOptions(command).config, io.env);
      if (existsSync(path) && !options.force) {
        throw new CliError(`${path} already exists; use --force to overwrite it`);
      }
      // Environment variables fill what the options leave out.
      const fromEnv = configInputFromEnv(io.env);
      if (fromEnv.problems.length > 0) throw new CliError(fromEnv.problems.join('\n'), EXIT.usage);
      const given = {
        cloudUrl: options.cloudUrl,
        locationKey: options.location,
        bridgeToken: options.token,
        controller: {
          recipient: options.recipient,
          port: options.port,
          key: options.key,
          mastercode: options.mastercode,
        },
        dataDir: options.dataDir,
        http: { host: '127.0.0.1', port: options.httpPort },
        pollIntervalMs: options.pollInterval,
      };
      const input = mergeDefined(fromEnv.input, given);
      const parsed = bridgeConfigSchema.safeParse(input);
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `${issue.path.join('.')}: ${describeIssue(issue)}`,
        );
        throw new CliError(`cannot write the config:\n  - ${problems.join('\n  - ')}`, EXIT.usage);
      }
      writeBridgeConfig(path, parsed.data);
      io.stdout(
        `Wrote ${path}\nNext: edge-bridge doctor, then edge-bridge run (installed from the package: sudo systemctl enable --now edge-bridge)\n`,
      );
    });
}

const OPTION_FOR: Record<string, string> = {
  cloudUrl: '--cloud-url',
  locationKey: '--location',
  bridgeToken: '--token',
  recipient: '--recipient',
  key: '--key',
  mastercode: '--mastercode',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = String(issue.path[issue.path.length - 1] ?? '');
  if (issue.code === 'invalid_type' && OPTION_FOR[field]) return `missing (give ${OPTION_FOR[field]})`;
  return issue.message;
}

/** `over` on top of `base`, ignoring undefined values, recursively. */
function mergeDefined(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] =
      typeof value === 'object' && value !== null && typeof current === 'object' && current !== null
        ? mergeDefined(current as Record<string, unknown>, value as Record<string, unknown>)
        : typeof value === 'object' && value !== null
          ? mergeDefined({}, value as Record<string, unknown>)
          : value;
  }
  return merged;
}
