import {
  changeAdminPasswordRequestSchema,
  createAdminUserRequestSchema,
  type AdminRole,
} from '@deposito/protocol';
import { z } from 'zod';
import type { FormNames } from './admin-form';

export interface NewUserForm {
  email: string;
  password: string;
  role: AdminRole;
  sites: string[];
}

export const NEW_USER_FORM: NewUserForm = { email: '', password: '', role: 'administrator', sites: [] };

type NewUserBody = z.input<typeof createAdminUserRequestSchema>;

/** Aggiungi utente: an administrator has every site; a site operator or technician names theirs. */
export const newUserFormSchema = z
  .object({
    email: z.string(),
    password: z.string(),
    role: z.custom<AdminRole>((role) => typeof role === 'string'),
    sites: z.union([z.array(z.string()), z.literal(false)]),
  })
  .transform(({ email, password, role, sites }): NewUserBody => ({
    email: email.trim(),
    password,
    role,
    // None ticked leaves it out, so the schema says a site is needed rather than an empty list.
    ...(role === 'administrator' || !sites || sites.length === 0 ? {} : { sites }),
  }))
  .pipe(createAdminUserRequestSchema);

export const NEW_USER_NAMES: FormNames = {
  labels: { email: 'Email', password: 'Password', role: 'Ruolo' },
};

export interface PasswordForm {
  password: string;
  currentPassword: string;
}

type PasswordBody = Pick<z.input<typeof changeAdminPasswordRequestSchema>, 'password' | 'currentPassword'>;

/** A new password, with the acting administrator's own when it is another's account. */
export const passwordFormSchema = z
  .object({ password: z.string(), currentPassword: z.string() })
  .transform(({ password, currentPassword }): PasswordBody => ({
    password,
    currentPassword: currentPassword || undefined,
  }))
  .pipe(changeAdminPasswordRequestSchema.pick({ password: true, currentPassword: true }));

export const PASSWORD_NAMES: FormNames = {
  labels: { password: 'Nuova password', currentPassword: 'La tua password attuale' },
};
