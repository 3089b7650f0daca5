import type { AdminRole } from '@deposito/protocol';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { LoginLimits } from '../auth/login-limits';
import type { LoginLimitSettings } from '../limits/limits-config';
import {
  DEFAULT_SCRYPT_COST,
  decoyHash,
  hashPassword,
  needsRehash,
  verifyPassword,
  type ScryptCost,
} from '../auth/password';
import { hashSessionToken, newSessionToken } from '../auth/session-token';
import type { Store } from '../store/store';
import type { AdminSessionRecord } from '../store/admin-user.repository';

/** Who a valid token belongs to. */
export interface AdminIdentity {
  userId: number;
  email: string;
  /** What the account may do (auth/roles.ts), and where: null for every site. */
  role: AdminRole;
  sites: string[] | null;
  expiresAt: Date;
  /** The client's address for this request (set by requireAdmin), for the audit trail. */
  address?: string | null;
}

export interface AdminAuthOptions {
  /** How long a token stays valid after login at most, however much it is used (absolute). */
  sessionTtlMs: number;
  /** How long a token stays valid without use (idle timeout); each use moves it on. */
  idleTimeoutMs: number;
  scryptCost: ScryptCost;
  /** Failed logins allowed per account and address, account, address (auth/login-limits.ts). */
  limits?: LoginLimitSettings;
  /** How the service waits before answering a throttled attempt; tests pass a fast one. */
  wait?: (ms: number) => Promise<unknown>;
}

export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
/** A session's expiry is moved on at most once a minute: not one write per admin request. */
const IDLE_EXTENSION_STEP_MS = 60_000;

/** The e-mail of the administrator generated in demo mode when none is configured. */
export const DEMO_ADMIN_EMAIL = 'admin@deposito.local';

export type FirstAdminOutcome =
  { created: false } | { created: true; email: string; generatedPassword?: string };

/** Who a live session belongs to, with its expiry (moved or not by this use). */
function identityOf(session: AdminSessionRecord, expiresAt: Date): AdminIdentity {
  return {
    userId: session.userId,
    email: session.email,
    role: session.role,
    sites: session.sites,
    expiresAt,
  };
}

/**
 * Administrator login, tokens and logout. A token is opaque and random; only its hash is stored,
 * with an expiry. Failed logins are slowed, then refused for a while (auth/login-limits.ts).
 */
export class AdminAuthService {
  readonly #limits: LoginLimits;
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
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      scryptCost: options.scryptCost ?? DEFAULT_SCRYPT_COST,
      limits: options.limits,
      wait: options.wait ?? ((ms) => sleep(ms)),
    };
    this.#limits = new LoginLimits(store, options.limits);
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
    const { delayMs } = await this.#limits.check(email, clientAddress);
    if (delayMs > 0) await this.#options.wait!(delayMs);

    const user = await this.store.adminUsers.findByEmail(email);
    const matches = user
      ? await verifyPassword(password, user.passwordHash)
      : await verifyPassword(password, await this.#decoyHash()).then(() => false);
    if (!user || !matches) {
      await this.#limits.recordFailure(email, clientAddress);
      this.logger.warn({ email: email.trim().toLowerCase(), ip: clientAddress }, 'admin login failed');
      throw new AppError('auth/invalid_credentials');
    }
    await this.#limits.recordSuccess(email, clientAddress);
    if (needsRehash(user.passwordHash, this.#options.scryptCost)) {
      // Made with older, cheaper parameters: the password is at hand, so it is hashed anew.
      const rehashed = await this.hashPassword(password);
      await this.store.adminUsers.replacePasswordHash(user.id, user.passwordHash, rehashed);
    }
    const now = this.clock.now();
    const token = newSessionToken();
    const expiresAt = new Date(
      now.getTime() + Math.min(this.#options.idleTimeoutMs, this.#options.sessionTtlMs),
    );
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

  /**
   * Checks an administrator's own password again before a sensitive change, counted with failed
   * logins (a stolen session cannot guess it faster than a login could): 403
   * `user/current_password_invalid` when wrong or missing, 429 past the limits.
   */
  async confirmPassword(
    admin: AdminIdentity,
    password: string | undefined,
    clientAddress: string,
  ): Promise<void> {
    const { delayMs } = await this.#limits.check(admin.email, clientAddress);
    if (delayMs > 0) await this.#options.wait!(delayMs);
    const user = await this.store.adminUsers.findByEmail(admin.email);
    if (user && password && (await verifyPassword(password, user.passwordHash))) return;
    await this.#limits.recordFailure(admin.email, clientAddress);
    throw new AppError(
      'user/current_password_invalid',
      'Per reimpostare la password di un altro amministratore inserisci la tua password attuale, corretta.',
    );
  }

  /**
   * The administrator a token belongs to, or null for a missing, unknown or expired token. A session
   * ends after `idleTimeoutMs` without use and `sessionTtlMs` after login whatever the use: each use
   * moves its expiry to now + idle timeout, never past the absolute end.
   */
  async authenticate(token: string | null): Promise<AdminIdentity | null> {
    const now = this.clock.now();
    const live = await this.#liveSession(token, now);
    if (!live) return null;
    const { session, tokenHash, absoluteEnd } = live;
    let expiresAt = session.expiresAt;
    const slid = Math.min(now.getTime() + this.#options.idleTimeoutMs, absoluteEnd);
    if (slid - expiresAt.getTime() >= IDLE_EXTENSION_STEP_MS) {
      expiresAt = new Date(slid);
      await this.store.adminUsers.extendSession(tokenHash, expiresAt);
    }
    return identityOf(session, expiresAt);
  }

  /**
   * The administrator a token still belongs to, as `authenticate`, without counting as a use (the
   * idle expiry does not move): for a long answer, such as the live locker stream, to check that its
   * session has not ended (signed out, expired, a new password, the account removed) while it runs.
   */
  async stillAuthenticated(token: string): Promise<AdminIdentity | null> {
    const live = await this.#liveSession(token, this.clock.now());
    return live ? identityOf(live.session, live.session.expiresAt) : null;
  }

  /** The token's session when it has not expired (idle or absolute), with its hash and absolute end. */
  async #liveSession(token: string | null, now: Date) {
    if (!token) return null;
    const tokenHash = hashSessionToken(token);
    const session = await this.store.adminUsers.findSession(tokenHash, now);
    if (!session) return null;
    const absoluteEnd = session.createdAt.getTime() + this.#options.sessionTtlMs;
    if (absoluteEnd <= now.getTime()) return null;
    return { session, tokenHash, absoluteEnd };
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
