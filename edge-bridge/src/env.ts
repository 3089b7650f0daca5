// The bridge's configuration: the JSON file written by `edge-bridge init`, overridden by environment
// variables. The one module that reads process.env; everything else receives a BridgeConfig.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
// zod/mini: every command reads the config, and classic zod's code would stay in the daemon's memory.
import * as z from 'zod/mini';
import { CONTROLLER_DEFAULT_PORT, CONTROLLER_TIMEOUT_MS } from '@deposito/protocol/controller/index';
import { LOCATION_KEY_MAX_LENGTH, LOCATION_KEY_PATTERN } from '@deposito/protocol/schemas/limits';
import { wholeNumberOf } from '@deposito/protocol/whole-number';
import { useEnglishZodMessages } from '@deposito/protocol/zod-english-messages';

export const DEFAULT_CONFIG_PATH = './edge-bridge.config.json';
export const DEFAULT_HTTP_PORT = 8790;
/** The setgid bit of a folder's mode (S_ISGID): files created in it take the folder's group. */
const SET_GROUP_ID = 0o2000;

useEnglishZodMessages();

const positiveMs = z.number().check(z.int(), z.positive());
const nonEmpty = z.string().check(z.minLength(1));
const portNumber = (min: number) => z.number().check(z.int(), z.gte(min), z.lte(65_535));

export const bridgeConfigSchema = z.object({
  /** The cloud's base URL, e.g. https://cloud.example.com (the bridge connects to its /bridge). */
  cloudUrl: z.url({ protocol: /^(https?|wss?)$/, error: 'an http(s) or ws(s) URL' }),
  /** The location's key as the cloud has it (a lowercase slug: `vicolo`, `campo-2`). */
  locationKey: z.string().check(
    z.maxLength(LOCATION_KEY_MAX_LENGTH),
    z.regex(LOCATION_KEY_PATTERN, {
      error: (issue) =>
        `a location key as the admin area shows it (lowercase, e.g. vicolo or campo-2), got ${JSON.stringify(issue.input)}`,
    }),
  ),
  bridgeToken: nonEmpty,
  controller: z.object({
    recipient: nonEmpty,
    port: z._default(portNumber(1), CONTROLLER_DEFAULT_PORT),
    key: nonEmpty,
    mastercode: nonEmpty,
    timeoutMs: z._default(positiveMs, CONTROLLER_TIMEOUT_MS),
  }),
  /** Holds the SQLite buffer; relative paths are taken from the config file's folder. */
  dataDir: z._default(nonEmpty, './data'),
  /** Local status server (/healthz, /metrics); keep it on loopback. */
  http: z._default(
    z.object({
      host: z._default(z.string(), '127.0.0.1'),
      port: z._default(portNumber(0), DEFAULT_HTTP_PORT),
    }),
    { host: '127.0.0.1', port: DEFAULT_HTTP_PORT },
  ),
  pollIntervalMs: z._default(positiveMs, 5_000),
  snapshotIntervalMs: z._default(positiveMs, 60_000),
  /** How long an UNKNOWN outcome is checked against polls before it is settled. */
  reconcileWindowMs: z._default(positiveMs, 60_000),
  maxOutboxItems: z._default(z.number().check(z.int(), z.gte(100)), 10_000),
  /**
   * The cloud link's waits before it tries again, each optional (the link's defaults otherwise):
   * after a failure, full jitter doubling from `baseMs` up to `capMs`; while another bridge holds the
   * location, between half and all of `firstConflictMs` the first time and of `conflictMs` after.
   */
  linkBackoff: z.optional(
    z.object({
      baseMs: z.optional(positiveMs),
      capMs: z.optional(positiveMs),
      conflictMs: z.optional(positiveMs),
      firstConflictMs: z.optional(positiveMs),
    }),
  ),
  logLevel: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
});

export type BridgeConfig = z.output<typeof bridgeConfigSchema>;
export type BridgeConfigInput = z.input<typeof bridgeConfigSchema>;

/** Environment variables that override the file, and where they go. */
export const BRIDGE_ENV_OVERRIDES = {
  BRIDGE_CLOUD_URL: ['cloudUrl'],
  BRIDGE_LOCATION_KEY: ['locationKey'],
  BRIDGE_TOKEN: ['bridgeToken'],
  BRIDGE_CONTROLLER_RECIPIENT: ['controller', 'recipient'],
  BRIDGE_CONTROLLER_PORT: ['controller', 'port'],
  BRIDGE_CONTROLLER_KEY: ['controller', 'key'],
  BRIDGE_CONTROLLER_MASTERCODE: ['controller', 'mastercode'],
  BRIDGE_CONTROLLER_TIMEOUT_MS: ['controller', 'timeoutMs'],
  BRIDGE_DATA_DIR: ['dataDir'],
  BRIDGE_HTTP_PORT: ['http', 'port'],
  BRIDGE_POLL_INTERVAL_MS: ['pollIntervalMs'],
  LOG_LEVEL: ['logLevel'],
} as const satisfies Record<string, readonly string[]>;

const NUMERIC = new Set(['port', 'timeoutMs', 'pollIntervalMs']);

export type Env = Record<string, string | undefined>;

/** The process environment, read here and only here. */
export function processEnv(): Env {
  return process.env;
}

/** Which config file to use: the explicit path, else BRIDGE_CONFIG, else ./edge-bridge.config.json. */
export function configPathFrom(explicit: string | undefined, env: Env = processEnv()): string {
  return resolve(explicit ?? env.BRIDGE_CONFIG ?? DEFAULT_CONFIG_PATH);
}

export type LoadedConfig =
  | { ok: true; config: BridgeConfig; path: string; fileFound: boolean }
  | { ok: false; problems: string[]; path: string };

/** Reads the file (if any), applies env overrides, validates; lists every problem at once. */
export function loadBridgeConfig(options: { path?: string; env?: Env } = {}): LoadedConfig {
  const env = options.env ?? processEnv();
  const path = configPathFrom(options.path, env);
  let raw: Record<string, unknown> = {};
  const fileFound = existsSync(path);
  if (fileFound) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        return { ok: false, path, problems: [`${path}: not a JSON object`] };
      }
      raw = parsed as Record<string, unknown>;
    } catch (error) {
      return {
        ok: false,
        path,
        problems: [`${path}: ${error instanceof Error ? error.message : String(error)}`],
      };
    }
  }
  const problems = applyEnvOverrides(raw, env);
  // Without a controller at all, each of its required values is named, not just the object.
  raw.controller ??= {};
  const parsed = bridgeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeConfigIssue(raw, issue));
  }
  if (!fileFound && problems.length > 0)
    problems.unshift(`no config file at ${path} (run: edge-bridge init)`);
  if (problems.length > 0 || !parsed.success) return { ok: false, path, problems };
  const config = parsed.data;
  if (!isAbsolute(config.dataDir)) config.dataDir = resolve(dirname(path), config.dataDir);
  return { ok: true, config, path, fileFound };
}

/**
 * One problem of a config as the technician fixes it: a value that is not there says where it can be
 * given (the file, or the environment variables that set it), rather than zod's "expected string,
 * received undefined".
 */
function describeConfigIssue(raw: Record<string, unknown>, issue: z.core.$ZodIssue): string {
  const where = issue.path.join('.');
  if (!where) return `(config): ${issue.message}`;
  let value: unknown = raw;
  for (const key of issue.path) {
    value =
      typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  if (value !== undefined) return `${where}: ${issue.message}`;
  const variable = Object.entries(BRIDGE_ENV_OVERRIDES).find(([, path]) => path.join('.') === where)?.[0];
  return `${where}: missing (set it in the config file${variable ? ` or with ${variable}` : ''})`;
}

/**
 * Validates and writes a config file, mode 600: it holds the bridge token and the mastercode. In a
 * setgid folder (the package's /etc/deposito, group deposito) it is 640 instead, so the service's
 * user can read the file root wrote.
 */
export function writeBridgeConfig(path: string, input: BridgeConfigInput): BridgeConfigInput {
  const parsed = bridgeConfigSchema.parse(input);
  const sharedWithGroup = (statSync(dirname(resolve(path))).mode & SET_GROUP_ID) !== 0;
  writeFileSync(path, JSON.stringify(parsed, null, 2) + '\n', { mode: sharedWithGroup ? 0o640 : 0o600 });
  return parsed;
}

export function bufferPath(config: BridgeConfig): string {
  return resolve(config.dataDir, 'edge-bridge.db');
}

/** The config values given by environment variables alone (for `init`), with any problems. */
export function configInputFromEnv(env: Env = processEnv()): {
  input: Record<string, unknown>;
  problems: string[];
} {
  const input: Record<string, unknown> = {};
  const problems = applyEnvOverrides(input, env);
  return { input, problems };
}

function applyEnvOverrides(raw: Record<string, unknown>, env: Env): string[] {
  const problems: string[] = [];
  for (const [name, target] of Object.entries(BRIDGE_ENV_OVERRIDES)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (!NUMERIC.has(target[target.length - 1]!)) {
      setPath(raw, target, value);
      continue;
    }
    // Its range is the config schema's to check, as for the file's numbers.
    const number = wholeNumberOf(value);
    if (number === null) problems.push(`${name}: expected a whole number, got "${value}"`);
    else setPath(raw, target, number);
  }
  return problems;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
