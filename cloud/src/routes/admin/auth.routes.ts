import { authRoutes } from '@deposito/protocol';
import { adminOf, adminTokenOf } from '../../auth/require-admin';
import { clearSessionCookie, setSessionCookie } from '../../auth/session-cookie';
import { clientKey } from '../../limits/client-key';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminServices } from '../../app-context';

export function authEndpoints(admin: AdminServices): Endpoint[] {
  return [
    // A 429 carries Retry-After (errors.ts) from the limits' `details.retryAfterSeconds`.
    // The browser keeps the session in an HttpOnly cookie; API clients use the token of the body.
    endpoint(authRoutes.login, async ({ body }, req, res) => {
      const { token, expiresAt } = await admin.auth.login(body.email, body.password, clientKey(req.ip));
      setSessionCookie(req, res, token);
      return { token, expiresAt: expiresAt.toISOString() };
    }),

    endpoint(authRoutes.logout, async (_input, req, res) => {
      await admin.auth.logout(adminTokenOf(res));
      clearSessionCookie(req, res);
      return { success: true as const };
    }),

    endpoint(authRoutes.listUsers, () => admin.users.list()),

    endpoint(authRoutes.createUser, ({ body }, _req, res) =>
      admin.users.create(adminOf(res), body.email, body.password, { role: body.role, sites: body.sites }),
    ),
    endpoint(authRoutes.me, (_input, _req, res) => {
      const { email, role, sites } = adminOf(res);
      return Promise.resolve({ email, role, sites });
    }),

    endpoint(authRoutes.changePassword, async ({ params, body }, req, res) => {
      await admin.users.changePassword(adminOf(res), params.id, body.password, body.version, {
        currentPassword: body.currentPassword,
        clientAddress: clientKey(req.ip),
      });
      return { success: true as const, message: 'Password aggiornata' };
    }),

    endpoint(authRoutes.deleteUser, async ({ params, query }, _req, res) => {
      await admin.users.remove(adminOf(res), params.id, query.version);
      return { success: true as const, message: 'Amministratore rimosso' };
    }),
  ];
}
