import { z } from 'zod';
import { zEditVersion, zEmail, zIsoDateTime, zLocationKey } from './primitives';

/** An account of the admin area, with its role and sites; the password hash never leaves the server. */
/**
 * What an operator of the admin area may do (issue 17): an administrator everything; a site
 * operator the bookings, lockers, takings, logs and settings of the sites assigned to them, never
 * users or system parameters; a technician only the lockers (state, commands, history) of theirs.
 */
export const ADMIN_ROLES = ['administrator', 'site_operator', 'technician'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];
export const zAdminRole = z.enum(ADMIN_ROLES);
/** The sites of a site operator or technician (at least one); null for an administrator (all). */
export const zAdminSites = z.array(zLocationKey).min(1).max(200).nullable();

export const adminUserSchema = z.object({
  id: z.number().int().min(1),
  email: zEmail,
  role: zAdminRole.default('administrator'),
  sites: zAdminSites.default(null),
  createdAt: zIsoDateTime,
  lastLoginAt: zIsoDateTime.nullable(),
  /** The account's edit version; a password reset or removal sends back the one it read. */
  version: zEditVersion.optional(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** The shortest password an account may have. */
export const ADMIN_PASSWORD_MIN_LENGTH = 10;
/** Long enough to resist guessing, short enough to bound the hashing work. */
export const zAdminPassword = z.string().min(ADMIN_PASSWORD_MIN_LENGTH).max(200);
