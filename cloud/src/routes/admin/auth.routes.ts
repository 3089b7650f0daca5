import { authRoutes } from '@deposito/protocol';
import { adminOf, adminTokenOf } from '../../auth/require-admin';
import { AppError } from '../../errors';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminModule } from './admin-module';

export function authEndpoints(admin: AdminModule): Endpoint[] {
  return [
    endpoint(authRoutes.login, async ({ body }, req, res) => {
      try {
        const { token, expiresAt } = await admin.auth.login(body.email, body.password, req.ip ?? 'unknown');
        return { token, expiresAt: expiresAt.toISOString() };
      } catch (error) {
        if (error instanceof AppError && error.code === 'auth/too_many_attempts') {
          const details = error.details as { retryAfterSeconds?: number } | undefined;
          if (details?.retryAfterSeconds) res.setHeader('Retry-After', String(details.retryAfterSeconds));
        }
        throw error;
      }
    }),

    endpoint(authRoutes.logout, async (_input, _req, res) => {
      await admin.auth.logout(adminTokenOf(res));
      return { success: true as const };
    }),

    endpoint(authRoutes.listUsers, () => admin.users.list()),

    endpoint(authRoutes.createUser, ({ body }, _req, res) =>
      admin.users.create(adminOf(res), body.email, body.password),
    ),

    endpoint(authRoutes.changePassword, async ({ params, body }, _req, res) => {
      await admin.users.changePassword(adminOf(res), params.id, body.password);
      return { success: true as const, message: 'Password aggiornata' };
    }),

    endpoint(authRoutes.deleteUser, async ({ params }, _req, res) => {
      await admin.users.remove(adminOf(res), params.id);
      return { success: true as const, message: 'Amministratore rimosso' };
    }),
  ];
}
