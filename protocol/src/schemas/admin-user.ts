import { z } from 'zod';
import { zEditVersion, zEmail, zIsoDateTime } from './primitives';

/** An administrator account. There is one role; the password hash never leaves the server. */
export const adminUserSchema = z.object({
  id: z.number().int().min(1),
  email: zEmail,
  createdAt: zIsoDateTime,
  lastLoginAt: zIsoDateTime.nullable(),
  /** The account's edit version; a password reset or removal sends back the one it read. */
  version: zEditVersion.optional(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** Long enough to resist guessing, short enough to bound the hashing work. */
export const zAdminPassword = z.string().min(10).max(200);
