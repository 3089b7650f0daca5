import { isIP } from 'node:net';
import { z } from 'zod';
import { wholeNumberVar } from '../env-values';

// The environment of the abuse limits (issue 14) and of TRUST_PROXY, which decides whose address
// they count: the socket's, or the client's as named by trusted balancers in X-Forwarded-For.

/** Express's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/** A count of limited events per client; 0 turns that limit off. */
const limit = (fallback: number) => wholeNumberVar(0, 1_000_000).default(fallback);

export const limitsEnvShape = {
  // Balancers in front of the cloud: a number of hops, or a comma-separated list of their addresses
  // or ranges (e.g. `10.0.0.0/8`, `loopback`). Unset: X-Forwarded-For is ignored, the socket counts.
  TRUST_PROXY: z
    .string()
    .max(2000)
    .refine(
      (value) =>
        /^\d{1,2}$/.test(value.trim()) || value.split(',').every((entry) => isProxyAddress(entry.trim())),
      'TRUST_PROXY is a number of hops or a comma-separated list of addresses, CIDR ranges, loopback…',
    )
    .optional(),
  // `off` turns every limit below off (test harnesses and benchmarks only).
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  // Hold requests (inhibit-multi, the legacy inhibit) per client per minute.
  LIMIT_HOLDS_PER_MINUTE: limit(20),
  // Lockers a client may hold per 15 minutes (a hold's lifetime): each hold counts its quantity.
  LIMIT_HELD_LOCKERS: limit(8),
  // Discount code checks per client per 10 minutes.
  LIMIT_DISCOUNT_CHECKS: limit(30),
  // Failed logins for one account from one address per 15 minutes; then that pair waits 15 minutes.
  LIMIT_LOGIN_FAILURES_ACCOUNT_ADDRESS: limit(6),
  // Failed logins for one account from any addresses per hour; then the account is refused, for the
  // rest of the hour, to every address it has not logged in from within three weeks.
  LIMIT_LOGIN_FAILURES_ACCOUNT: limit(30),
  // Failed logins from one address, whatever the accounts, per hour; then the address waits.
  LIMIT_LOGIN_FAILURES_ADDRESS: limit(100),
};

type LimitsEnv = z.output<z.ZodObject<typeof limitsEnvShape>>;

/** Express's `trust proxy` value: false (no proxy), a hop count, or the trusted addresses. */
export type TrustProxy = false | number | string[];

export interface LoginLimitSettings {
  /** Failures per account and address in 15 minutes (0: no limit). */
  accountAddressFailures: number;
  /** Failures per account from any address in an hour (0: no limit). */
  accountFailures: number;
  /** Failures per address for any accounts in an hour (0: no limit). */
  addressFailures: number;
}

export interface LimitsConfig {
  trustProxy: TrustProxy;
  /** Hold requests per client per minute (0: no limit). */
  holdsPerMinute: number;
  /** Lockers per client per 15 minutes (0: no limit). */
  heldLockers: number;
  /** Discount checks per client per 10 minutes (0: no limit). */
  discountChecks: number;
  login: LoginLimitSettings;
}

export function limitsConfigFromEnv(raw: LimitsEnv): LimitsConfig {
  const on = (value: number) => (raw.RATE_LIMITS === 'off' ? 0 : value);
  const trust = raw.TRUST_PROXY?.trim();
  return {
    trustProxy:
      trust === undefined
        ? false
        : /^\d+$/.test(trust)
          ? Number(trust)
          : trust.split(',').map((entry) => entry.trim()),
    holdsPerMinute: on(raw.LIMIT_HOLDS_PER_MINUTE),
    heldLockers: on(raw.LIMIT_HELD_LOCKERS),
    discountChecks: on(raw.LIMIT_DISCOUNT_CHECKS),
    login: {
      accountAddressFailures: on(raw.LIMIT_LOGIN_FAILURES_ACCOUNT_ADDRESS),
      accountFailures: on(raw.LIMIT_LOGIN_FAILURES_ACCOUNT),
      addressFailures: on(raw.LIMIT_LOGIN_FAILURES_ADDRESS),
    },
  };
}
