import { discountRoutes } from '@deposito/protocol';
import { adminOf } from '../../auth/require-admin';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminServices } from '../../app-context';

export function adminDiscountEndpoints(admin: AdminServices): Endpoint[] {
  return [
    endpoint(discountRoutes.list, () => admin.discounts.list()),
    endpoint(discountRoutes.create, async ({ body }, _req, res) => ({
      success: true as const,
      discount: await admin.discounts.create(adminOf(res), body),
    })),
    endpoint(discountRoutes.update, async ({ params, body }, _req, res) => ({
      success: true as const,
      discount: await admin.discounts.update(adminOf(res), params.code, body),
    })),
    endpoint(discountRoutes.delete, async ({ params }, _req, res) => {
      await admin.discounts.delete(adminOf(res), params.code);
      return { success: true as const, message: `Codice ${params.code} eliminato` };
    }),
  ];
}
