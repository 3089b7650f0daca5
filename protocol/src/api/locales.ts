import { z } from 'zod';
import { zLanguage } from '../schemas/index';
import { defineRoute } from './route';

export const localeParamsSchema = z.object({ lng: zLanguage });

/** i18next resources: nested objects of strings. */
export const translationsSchema = z.record(z.string().max(200), z.unknown());

export const localeRoutes = {
  translations: defineRoute({
    method: 'GET',
    path: '/locales/:lng/common.json',
    area: 'locales',
    auth: 'public',
    request: { params: localeParamsSchema },
    response: translationsSchema,
    summary: 'The translations of one interface language',
  }),
} as const;
