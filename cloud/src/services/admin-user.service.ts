import type { AdminUser } from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { AdminUserRecord } from '../store/admin-user.repository';
import type { Store } from '../store/store';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminAuthService, AdminIdentity } from './auth.service';

function toAdminUser(record: AdminUserRecord): AdminUser {
  return {
    id: record.id,
    email: record.email,
    createdAt: record.createdAt.toISOString(),
    lastLoginAt: record.lastLoginAt?.toISOString() ?? null,
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

  async create(actor: AdminIdentity, email: string, password: string): Promise<AdminUser> {
    const created = await this.store.adminUsers.create(
      { email, passwordHash: await this.auth.hashPassword(password) },
      this.clock.now(),
    );
    if (!created) throw new AppError('user/already_exists');
    await this.activity.record(actor, 'admin/user_created', `Amministratore ${created.email} aggiunto`);
    return toAdminUser(created);
  }

  /** Sets a new password; every session of that administrator ends. */
  async changePassword(actor: AdminIdentity, id: number, password: string): Promise<void> {
    const user = await this.store.adminUsers.get(id);
    if (!user) throw new AppError('user/not_found');
    await this.store.adminUsers.setPassword(id, await this.auth.hashPassword(password), this.clock.now());
    await this.activity.record(actor, 'admin/user_password_changed', `Password di ${user.email} reimpostata`);
  }

  async remove(actor: AdminIdentity, id: number): Promise<void> {
    const user = await this.store.adminUsers.get(id);
    const outcome = await this.store.adminUsers.remove(id);
    if (outcome === 'not_found') throw new AppError('user/not_found');
    if (outcome === 'last_admin') throw new AppError('user/last_admin');
    await this.activity.record(actor, 'admin/user_removed', `Amministratore ${user?.email ?? id} rimosso`);
  }
}
