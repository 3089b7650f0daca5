import { customerInhibitRequestSchema, windowFromNow } from '@deposito/protocol';
import type { Router } from 'express';
import { AppError } from '../../errors';
import { sendJson } from '../../json-answer';
import { toDuration } from '../../services/booking.service';
import type { AppContext } from '../../app-context';
import { clientKey } from '../../limits/client-key';

/**
 * `POST /api/lockers/inhibit` has two callers (customer spec §7, admin spec §7). The operator's
 * "Disattiva" carries an admin token and goes on to the guarded endpoint; the legacy customer page
 * sends `{ lockerId, duration, location }` without a token to block the locker it was offered. That
 * becomes an ordinary pending hold of exactly that locker, from now, that expires unless paid — the
 * same as `inhibit-multi` with the visitor's pick, so it grants nothing the public API does not.
 */
export function useCustomerInhibit(router: Router, { services, store, clock }: AppContext): void {
  router.post('/api/lockers/inhibit', async (req, res, next) => {
    const body = req.body as Record<string, unknown> | undefined;
    if (req.get('authorization') !== undefined || body?.duration === undefined) return next();
    try {
      const parsed = customerInhibitRequestSchema.safeParse(body);
      if (!parsed.success) {
        throw new AppError('validation/invalid_body', parsed.error.issues.map((i) => i.message).join('; '));
      }
      const request = parsed.data;
      const location = await services.locations.require(request.location);
      const locker = (await store.locations.lockers(location.key)).find((l) => l.number === request.lockerId);
      if (!locker) throw new AppError('booking/locker_unavailable', `No locker ${request.lockerId} here`);
      const duration = toDuration(request.duration);
      let window;
      try {
        window = windowFromNow(clock.now(), location.zone, duration);
      } catch {
        throw new AppError('booking/invalid_period', 'Not a bookable duration');
      }
      const booking = await services.visitorLimits.hold(clientKey(req.ip), 1, () =>
        services.bookings.hold({
          locationKey: location.key,
          size: locker.size,
          quantity: 1,
          duration,
          window: { startAt: new Date(window.startTimeIso), endAt: new Date(window.endTimeIso) },
          lockerNumbers: [locker.number],
          note: request.note,
        }),
      );
      sendJson(res, 200, {
        success: true,
        reservedLockers: booking.lockers.filter((l) => l.active).map((l) => l.number),
        message: `Locker ${locker.number} bloccato`,
        transactionId: booking.transactionId,
        expiresAt: booking.expiresAt?.toISOString(),
      });
    } catch (error) {
      next(error);
    }
  });
}
