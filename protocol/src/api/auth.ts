import { z } from 'zod';
import {
  TEXT_LIMITS,
  adminUserSchema,
  zAdminRole,
  zAdminSites,
  zAdminPassword,
  zEditVersion,
  zEmail,
  zIsoDateTime,
} from '../schemas/index';
import { okResponseSchema } from './common';
import { ERROR_CODES, type ErrorCode } from './errors';
import { defineRoute } from './route';

/** No rule on the password beyond a bound: a login must not reveal the password policy. */
export const loginRequestSchema = z.object({
  email: zEmail,
  password: z.string().min(1).max(200),
});

export const loginResponseSchema = z.object({
  token: z.string().min(16).max(TEXT_LIMITS.token),
  expiresAt: zIsoDateTime.optional(),
});

export const adminUserListResponseSchema = z.array(adminUserSchema).max(1000);
export const createAdminUserRequestSchema = z
  .object({
    email: zEmail,
    password: zAdminPassword,
    role: zAdminRole.default('administrator'),
    sites: zAdminSites.optional(),
  })
  // An administrator has every site; the others need theirs named.
  .refine((user) => (user.role === 'administrator' ? !user.sites : (user.sites?.length ?? 0) > 0), {
    message: ERROR_CODES['user/sites_required'].message,
    path: ['sites'],
    params: { code: 'user/sites_required' satisfies ErrorCode },
  });

/** Who is signed in, for the pages to show only what the role allows. */
export const adminMeResponseSchema = z.object({ email: zEmail, role: zAdminRole, sites: zAdminSites });
/** `version`: the account as read (`edit/stale` when another operator changed it since). */
export const changeAdminPasswordRequestSchema = z.object({
  password: zAdminPassword,
  /** The acting administrator's own password: required to set another administrator's. */
  currentPassword: z.string().max(200).optional(),
  version: zEditVersion.optional(),
});
export const deleteAdminUserQuerySchema = z.object({
  version: z.coerce.number().pipe(zEditVersion).optional(),
});
export const adminUserParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const authRoutes = {
  login: defineRoute({
    method: 'POST',
    path: '/api/admin/login',
    area: 'auth',
    auth: 'public',
    request: { body: loginRequestSchema },
    response: loginResponseSchema,
    summary: 'Exchange an administrator e-mail and password for a token',
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/admin/logout',
    area: 'auth',
    auth: 'admin',
    request: {},
    response: okResponseSchema,
    summary: 'Revoke the token the request carries',
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/admin/me',
    area: 'auth',
    auth: 'admin',
    request: {},
    response: adminMeResponseSchema,
    summary: "The signed-in account's e-mail, role and sites",
  }),
  listUsers: defineRoute({
    method: 'GET',
    path: '/api/admin/users',
    area: 'users',
    auth: 'admin',
    request: {},
    response: adminUserListResponseSchema,
    summary: 'All administrators',
  }),
  createUser: defineRoute({
    method: 'POST',
    path: '/api/admin/users',
    area: 'users',
    auth: 'admin',
    request: { body: createAdminUserRequestSchema },
    response: adminUserSchema,
    successStatus: 201,
    summary: 'Add an administrator',
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: '/api/admin/users/:id/password',
    area: 'users',
    auth: 'admin',
    request: { params: adminUserParamsSchema, body: changeAdminPasswordRequestSchema },
    response: okResponseSchema,
    summary: "Set an administrator's password and end their sessions",
  }),
  deleteUser: defineRoute({
    method: 'DELETE',
    path: '/api/admin/users/:id',
    area: 'users',
    auth: 'admin',
    request: { params: adminUserParamsSchema, query: deleteAdminUserQuerySchema },
    response: okResponseSchema,
    summary: 'Remove an administrator (never the last one; refused when the version read is stale)',
  }),
} as const;
