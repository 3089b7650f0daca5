import { discountRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { clientKey } from '../../limits/client-key';
import { visitorLimitsFor } from '../../limits/visitor-limits';
import { toDuration } from '../../services/booking.service';
import { endpoint } from '../endpoint';

export const discountsArea: RouteArea = {
  name: 'discounts',
  endpoints: ({ services, store, env }) => [
    endpoint(discountRoutes.validate, async ({ body }, req) => {
      await visitorLimitsFor(store, env.limits).discountCheck(clientKey(req.ip));
      const zone = body.location ? (await services.locations.require(body.location)).zone : undefined;
      return services.discounts.validate({
        code: body.code,
        duration: body.duration === undefined ? null : toDuration(body.duration),
        zone,
      });
    }),
  ],
};
