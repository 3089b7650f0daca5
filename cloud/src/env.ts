import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { limitsConfigFromEnv, limitsEnvShape } from './limits/limits-config';
import { mailConfigFromEnv, mailEnvShape } from './mail/mail-config';
import { paymentConfigFromEnv, paymentEnvShape, refinePaymentEnv } from './payments/payment-config';
import { wholeNumberVar } from './env-values';

// The one place the cloud process reads its environment. Every other module receives `Env`.

/** The repository root, so the default database lands in <repo>/data whatever the working directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const DEFAULT_DATABASE_URL = `sqlite:${path.join(REPO_ROOT, 'data', 'deposito.db')}`;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type DatabaseTarget =
  { dialect: 'sqlite'; filename: string } | { dialect: 'postgres'; connectionString: string };

/**
 * `sqlite::memory:`, `sqlite:<path>` (relative paths resolve against `cwd`) or `postgres://…` /
 * `postgresql://…`. Returns null for anything else.
 */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseTarget | null {
  if (url === 'sqlite::memory:') return { dialect: 'sqlite', filename: ':memory:' };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (file.length === 0) return null;
    return { dialect: 'sqlite', filename: path.resolve(cwd, file) };
  }
  if (/^postgres(?:ql)?:\/\//.test(url)) return { dialect: 'postgres', connectionString: url };
  return null;
}

const envSchema = z
  .object({
    PORT: wholeNumberVar(0, 65_535).default(8080),
    DATABASE_URL: z
      .string()
      .default(DEFAULT_DATABASE_URL)
      .refine((url) => parseDatabaseUrl(url) !== null, {
        message: 'Expected sqlite:<path>, sqlite::memory: or postgres://…',
      }),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    DEMO: z.enum(['0', '1']).default('0'),
    // The first administrator, created when the store has none.
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z.string().min(10, 'ADMIN_PASSWORD needs at least 10 characters').max(200).optional(),
    // Bearer token Prometheus must send to GET /metrics; unset closes /metrics, except with DEMO=1.
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN needs at least 16 characters').max(200).optional(),
    // Sites allowed to embed the booking pages in an iframe: a CSP frame-ancestors source list.
    FRAME_ANCESTORS: z
      .string()
      .max(2000)
      .regex(/^[^;,\r\n]+$/, 'FRAME_ANCESTORS is a space-separated list of CSP sources')
      .default('*'),
    // DEMO=1: the folder where the cloud writes each demo bridge's new random token (<key>.token,
    // readable by its owner only) for the start script's bridges; unset, the tokens are only logged
    // as installed and an operator issues them in the admin area.
    DEMO_BRIDGE_TOKENS_DIR: z.string().max(1000).optional(),
    // DEMO=1: the first of the six demo sites' controller ports, each site on the next (by default
    // each seed location's own, from 11000); tests move them to free ports.
    DEMO_SITE_PORT: wholeNumberVar(1, 65_530).optional(),
    // 1 serves the web build's source maps (*.map); off by default, they show our source to anyone.
    SERVE_SOURCE_MAPS: z.enum(['0', '1']).default('0'),
    // On SIGTERM, how long /readyz answers 503 while requests are still served, so the balancer
    // stops sending any before the process stops listening (2 health-check intervals and a bit).
    DRAIN_MS: wholeNumberVar(0, 120_000).default(0),
    // How the cloud reaches each location's kiosk system (Promotec): HTTP on a private link, or HTTPS.
    PROMOTEC_SCHEME: z.enum(['http', 'https']).default('http'),
    // Card payments (PAYMENT_PROVIDER, SANDBOX_*, AXERVE_*) and customer e-mail (SMTP_URL, MAIL_*).
    ...paymentEnvShape,
    ...mailEnvShape,
    // TRUST_PROXY and the abuse limits (RATE_LIMITS, LIMIT_*): limits/limits-config.ts.
    ...limitsEnvShape,
  })
  .superRefine(refinePaymentEnv)
  .refine((raw) => (raw.ADMIN_EMAIL === undefined) === (raw.ADMIN_PASSWORD === undefined), {
    message: 'Set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither',
    path: ['ADMIN_PASSWORD'],
  })
  .transform((raw) => ({
    port: raw.PORT,
    database: parseDatabaseUrl(raw.DATABASE_URL) as DatabaseTarget,
    databaseUrl: raw.DATABASE_URL,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ''),
    logLevel: raw.LOG_LEVEL,
    demo: raw.DEMO === '1',
    demoBridgeTokensDir: raw.DEMO_BRIDGE_TOKENS_DIR ? path.resolve(raw.DEMO_BRIDGE_TOKENS_DIR) : null,
    demoSitePort: raw.DEMO_SITE_PORT ?? null,
    firstAdmin: { email: raw.ADMIN_EMAIL, password: raw.ADMIN_PASSWORD },
    metricsToken: raw.METRICS_TOKEN ?? null,
    frameAncestors: raw.FRAME_ANCESTORS.trim(),
    serveSourceMaps: raw.SERVE_SOURCE_MAPS === '1',
    promotecScheme: raw.PROMOTEC_SCHEME,
    drainMs: raw.DRAIN_MS,
    payment: paymentConfigFromEnv(raw),
    mail: mailConfigFromEnv(raw, REPO_ROOT),
    limits: limitsConfigFromEnv(raw),
  }));

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/**
 * Loads <repo>/.env into the process environment when the file exists (variables already set win),
 * so a deployment or a laptop can keep its settings in the documented `.env.example` format.
 */
export function loadDotEnvFile(file: string = path.join(REPO_ROOT, '.env')): boolean {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}

/** Reads and validates the environment; throws an EnvError listing every problem at once. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable counts as unset, as in most deployment tools.
  const defined = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = envSchema.safeParse(defined);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  return result.data;
}
