// Protocol's route definitions, with their full zod schemas, for every call after the location
// page's first two: deposito-api loads this module when the visitor starts booking, so the first
// download carries neither zod nor these schemas.
export { availabilityRoutes } from '@deposito/protocol/api/availability';
export { bookingRoutes } from '@deposito/protocol/api/bookings';
export { discountRoutes } from '@deposito/protocol/api/discounts';
export { lockerRoutes } from '@deposito/protocol/api/lockers';
export { nightRoutes } from '@deposito/protocol/api/night';
export { paymentRoutes } from '@deposito/protocol/api/payments';
