import { ADMIN_ROLES, type AdminRole } from '@deposito/protocol';
import type { Generated, Kysely } from 'kysely';
import type { Database, Instant, NullableInstant } from './database';
import { isStale, toEditStamp, type EditIntent, type EditStamp, type StaleEdit } from './edit-stamp';
import type { SqlDialect } from './migrate';
import { PreparedQuery } from './prepared-query';
import { fromJson, toCount, toDate, toDateOrNull } from './values';
import { writeTransaction } from './write-transaction';

interface AdminUserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  created_at: Instant;
  password_changed_at: Instant;
  last_login_at: NullableInstant;
  /** Edit version and last operator (migration 20251125120000). */
  version: Generated<number>;
  updated_by: string | null;
  updated_at: NullableInstant;
  /** Migration 20251127120000: the account's role and, unless an administrator, its sites (JSON). */
  role: Generated<string>;
  sites: string | null;
}

interface AdminSessionTable {
  token_hash: string;
  user_id: number;
  created_at: Instant;
  expires_at: Instant;
}

/** The tables of migration 20251122110000_admin-auth, beside the core ones. */
export interface AdminAuthDatabase extends Database {
  admin_users: AdminUserTable;
  admin_sessions: AdminSessionTable;
}

export interface AdminUserRecord {
  id: number;
  email: string;
  role: AdminRole;
  /** The sites a site operator or technician may act on; null: every site (an administrator). */
  sites: string[] | null;
  passwordHash: string;
  createdAt: Date;
  passwordChangedAt: Date;
  lastLoginAt: Date | null;
  edit: EditStamp;
}

export interface AdminSessionRecord {
  tokenHash: string;
  userId: number;
  email: string;
  role: AdminRole;
  sites: string[] | null;
  createdAt: Date;
  expiresAt: Date;
}

export type RemoveAdminResult = 'removed' | 'not_found' | 'last_admin';

export interface AdminUserRepository {
  count(): Promise<number>;
  list(): Promise<AdminUserRecord[]>;
  get(id: number): Promise<AdminUserRecord | null>;
  /** By e-mail, compared lower-cased. */
  findByEmail(email: string): Promise<AdminUserRecord | null>;
  /** Inserts an administrator; null when the e-mail is taken. */
  create(
    input: { email: string; passwordHash: string; role?: AdminRole; sites?: string[] | null },
    now: Date,
  ): Promise<AdminUserRecord | null>;
  /**
   * Sets a new password hash and ends every session of that user in the same step; false when the
   * user does not exist. With `edit` (an operator's save): refused, changing nothing, when the
   * version read is stale; otherwise the version rises and names the operator.
   */
  setPassword(id: number, passwordHash: string, now: Date, edit?: EditIntent): Promise<boolean | StaleEdit>;
  /**
   * Removes an administrator and their sessions, unless they are the last one (checked atomically)
   * or, with `edit`, the version read is stale.
   */
  remove(id: number, edit?: EditIntent): Promise<RemoveAdminResult | StaleEdit>;
  recordLogin(id: number, now: Date): Promise<void>;
  /**
   * The same password hashed with stronger parameters (at login): replaces `previousHash` only if it
   * is still the stored one, so a password changed meanwhile is kept; sessions and version stay.
   */
  replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean>;
  createSession(session: { tokenHash: string; userId: number; expiresAt: Date }, now: Date): Promise<void>;
  /** A session that has not expired at `now`, with its user's e-mail. */
  findSession(tokenHash: string, now: Date): Promise<AdminSessionRecord | null>;
  deleteSession(tokenHash: string): Promise<boolean>;
  /** Moves a live session's expiry (the idle timeout slides with use). */
  extendSession(tokenHash: string, expiresAt: Date): Promise<void>;
  /** Drops expired sessions; returns how many. */
  deleteExpiredSessions(now: Date): Promise<number>;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function toUser(row: {
  id: number;
  email: string;
  password_hash: string;
  created_at: Date | string;
  password_changed_at: Date | string;
  last_login_at: Date | string | null;
  version: number;
  updated_by: string | null;
  updated_at: Date | string | null;
  role: string;
  sites: string | null;
}): AdminUserRecord {
  return {
    id: row.id,
    email: row.email,
    role: roleOf(row.role),
    sites: sitesOf(row.sites),
    passwordHash: row.password_hash,
    createdAt: toDate(row.created_at),
    passwordChangedAt: toDate(row.password_changed_at),
    lastLoginAt: toDateOrNull(row.last_login_at),
    edit: toEditStamp(row),
  };
}

/** A stored role; an unknown one (a later version's) is read as the least powerful. */
function roleOf(value: string): AdminRole {
  return (ADMIN_ROLES as readonly string[]).includes(value) ? (value as AdminRole) : 'technician';
}

function sitesOf(value: string | null): string[] | null {
  if (value === null) return null;
  const sites = fromJson<unknown>(value);
  return Array.isArray(sites) ? sites.filter((site): site is string => typeof site === 'string') : [];
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function sessionByHashQuery(db: Kysely<AdminAuthDatabase>) {
  return new PreparedQuery(db, ['tokenHash', 'now'], (q, p: { tokenHash: string; now: Date }) =>
    q
      .selectFrom('admin_sessions as s')
      .innerJoin('admin_users as u', 'u.id', 's.user_id')
      .select(['s.token_hash', 's.user_id', 's.created_at', 's.expires_at', 'u.email', 'u.role', 'u.sites'])
      .where('s.token_hash', '=', p.tokenHash)
      .where('s.expires_at', '>', p.now),
  );
}

export class KyselyAdminUserRepository implements AdminUserRepository {
  private readonly db: Kysely<AdminAuthDatabase>;

  /** Every admin call looks its session up: prepared once (prepared-query.ts). */
  private readonly sessionByHash: ReturnType<typeof sessionByHashQuery>;

  constructor(
    db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {
    this.db = db as unknown as Kysely<AdminAuthDatabase>;
    this.sessionByHash = sessionByHashQuery(this.db);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('admin_users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return toCount(row.n as string | number);
  }

  async list(): Promise<AdminUserRecord[]> {
    return (await this.db.selectFrom('admin_users').selectAll().orderBy('email').execute()).map(toUser);
  }

  async get(id: number): Promise<AdminUserRecord | null> {
    const row = await this.db.selectFrom('admin_users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<AdminUserRecord | null> {
    const row = await this.db
      .selectFrom('admin_users')
      .selectAll()
      .where('email', '=', normaliseEmail(email))
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async create(
    input: { email: string; passwordHash: string; role?: AdminRole; sites?: string[] | null },
    now: Date,
  ): Promise<AdminUserRecord | null> {
    try {
      const row = await this.db
        .insertInto('admin_users')
        .values({
          email: normaliseEmail(input.email),
          role: input.role ?? 'administrator',
          sites: input.role && input.role !== 'administrator' ? JSON.stringify(input.sites ?? []) : null,
          password_hash: input.passwordHash,
          created_at: now,
          password_changed_at: now,
          last_login_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean> {
    const result = await this.db
      .updateTable('admin_users')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .where('password_hash', '=', previousHash)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setPassword(
    id: number,
    passwordHash: string,
    now: Date,
    edit?: EditIntent,
  ): Promise<boolean | StaleEdit> {
    return writeTransaction(this.db, this.dialect, async (trx): Promise<boolean | StaleEdit> => {
      const db = trx as unknown as Kysely<AdminAuthDatabase>;
      if (edit) {
        let query = db
          .selectFrom('admin_users')
          .select(['version', 'updated_by', 'updated_at'])
          .where('id', '=', id);
        if (this.dialect === 'postgres') query = query.forUpdate();
        const row = await query.executeTakeFirst();
        if (!row) return false;
        if (isStale(edit, row)) return { ok: false, reason: 'stale', current: toEditStamp(row) };
      }
      const result = await db
        .updateTable('admin_users')
        .set((eb) => ({
          password_hash: passwordHash,
          password_changed_at: now,
          ...(edit && { version: eb('version', '+', 1), updated_by: edit.actor, updated_at: now }),
        }))
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await db.deleteFrom('admin_sessions').where('user_id', '=', id).execute();
      return true;
    });
  }

  async remove(id: number, edit?: EditIntent): Promise<RemoveAdminResult | StaleEdit> {
    // One write transaction: two administrators removing each other at once cannot leave none.
    return writeTransaction(this.db, this.dialect, async (trx): Promise<RemoveAdminResult | StaleEdit> => {
      const db = trx as unknown as Kysely<AdminAuthDatabase>;
      if (this.dialect === 'postgres') {
        await db.selectFrom('admin_users').select('id').forUpdate().execute();
      }
      const exists = await db
        .selectFrom('admin_users')
        .select(['id', 'version', 'updated_by', 'updated_at', 'role'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!exists) return 'not_found';
      if (edit && isStale(edit, exists)) return { ok: false, reason: 'stale', current: toEditStamp(exists) };
      // Someone must still be able to manage the accounts: the last administrator stays, whoever
      // else (site operators, technicians) there is.
      if (exists.role === 'administrator') {
        const row = await db
          .selectFrom('admin_users')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('role', '=', 'administrator')
          .executeTakeFirstOrThrow();
        if (toCount(row.n as string | number) <= 1) return 'last_admin';
      }
      await db.deleteFrom('admin_sessions').where('user_id', '=', id).execute();
      await db.deleteFrom('admin_users').where('id', '=', id).execute();
      return 'removed';
    });
  }

  async recordLogin(id: number, now: Date): Promise<void> {
    await this.db.updateTable('admin_users').set({ last_login_at: now }).where('id', '=', id).execute();
  }

  async createSession(
    session: { tokenHash: string; userId: number; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await this.db
      .insertInto('admin_sessions')
      .values({
        token_hash: session.tokenHash,
        user_id: session.userId,
        created_at: now,
        expires_at: session.expiresAt,
      })
      .execute();
  }

  async findSession(tokenHash: string, now: Date): Promise<AdminSessionRecord | null> {
    const [row] = await this.sessionByHash.rows({ tokenHash, now });
    if (!row) return null;
    return {
      tokenHash: row.token_hash,
      userId: row.user_id,
      email: row.email,
      role: roleOf(row.role),
      sites: sitesOf(row.sites),
      createdAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
    };
  }

  async extendSession(tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .updateTable('admin_sessions')
      .set({ expires_at: expiresAt })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('admin_sessions')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteExpiredSessions(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('admin_sessions')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
