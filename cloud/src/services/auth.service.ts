import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { LoginThrottle, type LoginThrottleOptions } from '../auth/login-throttle';
import {
  DEFAULT_SCRYPT_COST,
  decoyHash,
  hashPassword,
  verifyPassword,
  type ScryptCost,
} from '../auth/password';
import { hashSessionToken, newSessionToken } from '../auth/session-token';
import type { Store } from '../store/store';

/** Who a valid token belongs to. */
export interface AdminIdentity {
  userId: number;
  email: string;
  expiresAt: Date;
}

export interface AdminAuthOptions {
  /** How long a token stays valid after login. */
  sessionTtlMs: number;
  scryptCost: ScryptCost;
  throttle?: LoginThrottleOptions;
  /** How the service waits before answering a throttled attempt; tests pass a fast one. */
  wait?: (ms: number) => Promise<unknown>;
}

export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60_000;

/** The e-mail of the administrator generated in demo mode when none is configured. */
export const DEMO_ADMIN_EMAIL = 'admin@deposito.local';

export type FirstAdminOutcome =
  { created: false } | { created: true; email: string; generatedPassword?: string };

/**
 * Administrator login, tokens and logout. A token is opaque and random; only its hash is stored,
 * with an expiry. Failed logins are slowed, then refused for a while, per e-mail and address.
 */
export class AdminAuthService {
  readonly #throttle: LoginThrottle;
  readonly #options: AdminAuthOptions;
  #decoy: Promise<string> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: Partial<AdminAuthOptions> = {},
  ) {
    this.#options = {
      sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
      scryptCost: options.scryptCost ?? DEFAULT_SCRYPT_COST,
      throttle: options.throttle,
      wait: options.wait ?? ((ms) => sleep(ms)),
    };
    this.#throttle = new LoginThrottle(clock, options.throttle);
  }

  hashPassword(password: string): Promise<string> {
    return hashPassword(password, this.#options.scryptCost);
  }

  /**
   * Exchanges e-mail and password for a token. Wrong e-mail and wrong password fail alike
   * (`auth/invalid_credentials`); too many failures give `auth/too_many_attempts` with the seconds
   * to wait in `details.retryAfterSeconds`, even for the right password.
   */
  async login(
    email: string,
    password: string,
    clientAddress: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    const key = LoginThrottle.key(email, clientAddress);
    const decision = this.#throttle.check(key);
    if (!decision.allowed) {
      throw new AppError('auth/too_many_attempts', undefined, {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    if (decision.delayMs > 0) await this.#options.wait!(decision.delayMs);

    const user = await this.store.adminUsers.findByEmail(email);
    const matches = user
      ? await verifyPassword(password, user.passwordHash)
      : await verifyPassword(password, await this.#decoyHash()).then(() => false);
    if (!user || !matches) {
      this.#throttle.recordFailure(key);
      this.logger.warn({ email: email.trim().toLowerCase(), ip: clientAddress }, 'admin login failed');
      throw new AppError('auth/invalid_credentials');
    }
    this.#throttle.recordSuccess(key);
    const now = this.clock.now();
    const token = newSessionToken();
    const expiresAt = new Date(now.getTime() + this.#options.sessionTtlMs);
    await this.store.adminUsers.createSession(
      { tokenHash: hashSessionToken(token), userId: user.id, expiresAt },
      now,
    );
    await this.store.adminUsers.recordLogin(user.id, now);
    // Logins are rare: a good moment to drop sessions nobody can use any more.
    await this.store.adminUsers.deleteExpiredSessions(now);
    this.logger.info({ userId: user.id }, 'admin logged in');
    return { token, expiresAt };
  }

  /** The administrator a token belongs to, or null for a missing, unknown or expired token. */
  async authenticate(token: string | null): Promise<AdminIdentity | null> {
    if (!token) return null;
    const session = await this.store.adminUsers.findSession(hashSessionToken(token), this.clock.now());
    return session ? { userId: session.userId, email: session.email, expiresAt: session.expiresAt } : null;
  }

  /** Ends the session of this token on the server. */
  async logout(token: string): Promise<void> {
    await this.store.adminUsers.deleteSession(hashSessionToken(token));
  }

  /**
   * Creates the first administrator when there is none: from ADMIN_EMAIL/ADMIN_PASSWORD, or in demo
   * mode `admin@deposito.local` with a generated password the caller prints. Nothing otherwise.
   */
  async ensureFirstAdmin(input: {
    email?: string;
    password?: string;
    demo: boolean;
  }): Promise<FirstAdminOutcome> {
    if ((await this.store.adminUsers.count()) > 0) return { created: false };
    const now = this.clock.now();
    if (input.email && input.password) {
      await this.store.adminUsers.create(
        { email: input.email, passwordHash: await this.hashPassword(input.password) },
        now,
      );
      return { created: true, email: input.email.trim().toLowerCase() };
    }
    if (!input.demo) {
      this.logger.warn('no administrator exists: set ADMIN_EMAIL and ADMIN_PASSWORD to create the first one');
      return { created: false };
    }
    const generatedPassword = randomBytes(12).toString('base64url');
    await this.store.adminUsers.create(
      { email: DEMO_ADMIN_EMAIL, passwordHash: await this.hashPassword(generatedPassword) },
      now,
    );
    return { created: true, email: DEMO_ADMIN_EMAIL, generatedPassword };
  }

  #decoyHash(): Promise<string> {
    this.#decoy ??= decoyHash(this.#options.scryptCost);
    return this.#decoy;
  }
}
