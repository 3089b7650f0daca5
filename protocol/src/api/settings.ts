import { frontendOverridesSchema, systemSettingsPatchSchema, systemSettingsSchema } from '../schemas/index';
import { locationQuerySchema } from './common';
import { defineRoute } from './route';

export const settingsRoutes = {
  getSystem: defineRoute({
    method: 'GET',
    path: '/api/admin/settings/system',
    area: 'settings',
    auth: 'admin',
    request: {},
    response: systemSettingsSchema,
    summary: 'The system parameters',
  }),
  updateSystem: defineRoute({
    method: 'POST',
    path: '/api/admin/settings/system',
    area: 'settings',
    auth: 'admin',
    request: { body: systemSettingsPatchSchema },
    response: systemSettingsSchema,
    summary: 'Change some system parameters; answers all of them',
  }),
  frontendOverrides: defineRoute({
    method: 'GET',
    path: '/api/admin/frontend-overrides',
    area: 'settings',
    // Public despite the path: every booking page reads it before anything else.
    auth: 'public',
    request: { query: locationQuerySchema },
    response: frontendOverridesSchema,
    summary: 'Maintenance, block windows and fast-track settings as the booking pages apply them',
  }),
} as const;
