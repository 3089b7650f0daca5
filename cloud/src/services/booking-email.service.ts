import { amountInCents } from '@deposito/protocol';
import type { Logger } from 'pino';
import { sendBookingEmail, type BookingEmailData, type BookingEmailKind } from '../mail/booking-email';
import type { Mailer } from '../mail/mailer';
import type { BookingRecord } from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';

/** The e-mail view of a booking: the lockers it holds, what was charged, in its language. */
export function bookingEmailData(booking: BookingRecord, location: LocationRecord): BookingEmailData | null {
  if (!booking.customer.email) return null;
  return {
    language: booking.lang,
    to: booking.customer.email,
    customerName: [booking.customer.firstName, booking.customer.lastName].filter(Boolean).join(' '),
    transactionId: booking.transactionId,
    location: { name: location.name, address: location.address, timezone: location.zone },
    startIso: booking.startAt.toISOString(),
    endIso: booking.endAt.toISOString(),
    size: booking.size,
    quantity: booking.quantity,
    lockerIds: booking.lockers.filter((locker) => locker.active).map((locker) => locker.number),
    pin: booking.pin,
    totalCents: amountInCents(booking.totalCents),
  };
}

/**
 * Sends the customer's booking e-mails. A mail failure is logged, never thrown: the booking is
 * paid and confirmed whether or not the message went out.
 */
export class BookingEmailService {
  constructor(
    private readonly mailer: Mailer,
    private readonly logger: Logger,
  ) {}

  async send(kind: BookingEmailKind, booking: BookingRecord, location: LocationRecord): Promise<boolean> {
    const data = bookingEmailData(booking, location);
    if (!data) {
      this.logger.warn(
        { transactionId: booking.transactionId, kind },
        'booking has no e-mail address; nothing sent',
      );
      return false;
    }
    try {
      const sent = await sendBookingEmail(this.mailer, kind, data);
      this.logger.info(
        { transactionId: booking.transactionId, kind, messageId: sent.messageId },
        'booking e-mail sent',
      );
      return true;
    } catch (error) {
      this.logger.error({ err: error, transactionId: booking.transactionId, kind }, 'booking e-mail failed');
      return false;
    }
  }
}
