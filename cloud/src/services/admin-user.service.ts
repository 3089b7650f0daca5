import type { AdminRole, AdminUser } from '@deposito/protocol';
import type { Clock } from '../clock';
import { isCommonPassword } from '../auth/password-policy';
import { AppError } from '../errors';
import type { AdminUserRecord } from '../store/admin-user.repository';
import type { Store } from '../store/store';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminAuthService, AdminIdentity } from './auth.service';
import { staleEditError } from './stale-edit';

/** Refuses a password attackers would try first; the admin pages show the message as it is. */
function requireUncommonPassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new AppError(
      'user/password_too_common',
      'Password troppo comune: è tra le prime che un attaccante proverebbe. Scegline un’altra.',
    );
  }
}

const ROLE_NAMES: Record<AdminRole, string> = {
  administrator: 'Amministratore',
  site_operator: 'Operatore di sede',
  technician: 'Tecnico',
};

function toAdminUser(record: AdminUserRecord): AdminUser {
  return {
    id: record.id,
    email: record.email,
    role: record.role,
    sites: record.sites,
    createdAt: record.createdAt.toISOString(),
    lastLoginAt: record.lastLoginAt?.toISOString() ?? null,
    version: record.edit.version,
  };
}

/** The "Utenti" screen: list, add, reset a password, remove (never the last administrator). */
export class AdminUserService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly auth: AdminAuthService,
    private readonly activity: AdminActivityLog,
  ) {}

  async list(): Promise<AdminUser[]> {
    return (await this.store.adminUsers.list()).map(toAdminUser);
  }

  async create(
    actor: AdminIdentity,
    email: string,
    password: string,
    access: { role: AdminRole; sites?: string[] | null } = { role: 'administrator' },
  ): Promise<AdminUser> {
    requireUncommonPassword(password);
    const sites = access.role === 'administrator' ? null : [...new Set(access.sites ?? [])];
    for (const site of sites ?? []) {
      if (!(await this.store.locations.get(site)))
        throw new AppError('location/not_found', `No location '${site}'`);
    }
    const created = await this.store.adminUsers.create(
      { email, passwordHash: await this.auth.hashPassword(password), role: access.role, sites },
      this.clock.now(),
    );
    if (!created) throw new AppError('user/already_exists');
    const what =
      created.role === 'administrator'
        ? `Amministratore ${created.email} aggiunto`
        : `${ROLE_NAMES[created.role]} ${created.email} aggiunto per ${created.sites?.join(', ')}`;
    await this.activity.record(actor, 'admin/user_created', what);
    return toAdminUser(created);
  }

  /**
   * Sets a new password; every session of that administrator ends. `version`: the account as read.
   * Another administrator's password needs the actor's own (`confirm`), so a session left open or
   * stolen cannot take over the other accounts.
   */
  async changePassword(
    actor: AdminIdentity,
    id: number,
    password: string,
    version: number | undefined,
    confirm: { currentPassword?: string; clientAddress: string },
  ): Promise<void> {
    requireUncommonPassword(password);
    if (id !== actor.userId) {
      await this.auth.confirmPassword(actor, confirm.currentPassword, confirm.clientAddress);
    }
    const user = await this.store.adminUsers.get(id);
    if (!user) throw new AppError('user/not_found');
    const result = await this.store.adminUsers.setPassword(
      id,
      await this.auth.hashPassword(password),
      this.clock.now(),
      { actor: actor.email, expectedVersion: version },
    );
    if (result === false) throw new AppError('user/not_found');
    if (result !== true)
      throw staleEditError(`L'amministratore ${user.email} è stato modificato`, result.current);
    await this.activity.record(actor, 'admin/user_password_changed', `Password di ${user.email} reimpostata`);
  }

  async remove(actor: AdminIdentity, id: number, version?: number): Promise<void> {
    const user = await this.store.adminUsers.get(id);
    const outcome = await this.store.adminUsers.remove(id, { actor: actor.email, expectedVersion: version });
    if (outcome === 'not_found') throw new AppError('user/not_found');
    if (outcome === 'last_admin') throw new AppError('user/last_admin');
    if (typeof outcome === 'object') {
      throw staleEditError(`L'amministratore ${user?.email ?? id} è stato modificato`, outcome.current);
    }
    await this.activity.record(actor, 'admin/user_removed', `Amministratore ${user?.email ?? id} rimosso`);
  }
}
