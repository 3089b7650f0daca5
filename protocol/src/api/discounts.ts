import { z } from 'zod';
import {
  bookingDurationSchema,
  discountCodeInputSchema,
  discountCodeSchema,
  discountCodeUpdateSchema,
  discountValidationSchema,
  zDiscountCode,
  zLocationKey,
} from '../schemas/index';
import { okResponseSchema } from './common';
import { defineRoute } from './route';

/** The code is trimmed; the duration lets the server check a minimum stay. */
export const validateDiscountRequestSchema = z.object({
  code: zDiscountCode,
  duration: bookingDurationSchema.optional(),
  location: zLocationKey.optional(),
});

export const discountListResponseSchema = z.array(discountCodeSchema).max(10_000);

export const createDiscountRequestSchema = discountCodeInputSchema;
export const createDiscountResponseSchema = z.object({
  success: z.literal(true),
  discount: discountCodeSchema,
});

export const discountCodeParamsSchema = z.object({ code: zDiscountCode });

/** An edit in place of the code in the path (which the body's `code` may rename). */
export const updateDiscountRequestSchema = discountCodeUpdateSchema;
export const updateDiscountResponseSchema = createDiscountResponseSchema;

export const discountRoutes = {
  validate: defineRoute({
    method: 'POST',
    path: '/api/discounts/validate-discount',
    area: 'discounts',
    auth: 'public',
    request: { body: validateDiscountRequestSchema },
    response: discountValidationSchema,
    summary: 'Check a discount code for a booking (answers valid: false rather than an error)',
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/discounts/all',
    area: 'discounts',
    auth: 'admin',
    request: {},
    response: discountListResponseSchema,
    summary: 'All discount codes',
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/discounts/create',
    area: 'discounts',
    auth: 'admin',
    request: { body: createDiscountRequestSchema },
    response: createDiscountResponseSchema,
    successStatus: 201,
    summary: 'Create a discount code',
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/discounts/:code',
    area: 'discounts',
    auth: 'admin',
    request: { params: discountCodeParamsSchema, body: updateDiscountRequestSchema },
    response: updateDiscountResponseSchema,
    summary: 'Edit a discount code in place, keeping its usage; refused when the version read is stale',
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/discounts/:code',
    area: 'discounts',
    auth: 'admin',
    request: { params: discountCodeParamsSchema },
    response: okResponseSchema,
    summary: 'Delete a discount code, unless a checkout in progress uses it',
  }),
} as const;
