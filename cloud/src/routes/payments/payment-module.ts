import type { AppContext } from '../../app-context';
import { MorningScheduler } from '../../jobs/morning-scheduler';
import type { MailConfig } from '../../mail/mail-config';
import { createMailer, type Mailer } from '../../mail/mailer';
import type { PaymentConfig } from '../../payments/payment-config';
import {
  bookingPaymentUrls,
  createPaymentGateway,
  type PaymentGateway,
} from '../../payments/payment-gateway';
import { BookingEmailService } from '../../services/booking-email.service';
import { cryptoRandom, type RandomSource } from '../../services/booking.service';
import { MyBookingService, myBookingPath } from '../../services/my-booking.service';
import { PaymentService } from '../../services/payment.service';

/** What the payments area can be given instead of what the environment says (tests, tools). */
export interface PaymentAreaOptions {
  payment?: PaymentConfig;
  mail?: MailConfig;
  mailer?: Mailer;
  /** Where the cloud is reachable from browsers and the gateway; env PUBLIC_URL by default. */
  publicUrl?: () => string;
  random?: RandomSource;
}

/** The payment services of one app, built once per app and shared by its routes and jobs. */
export interface PaymentModule {
  payments: PaymentService;
  emails: BookingEmailService;
  scheduler: MorningScheduler;
  /** Sends the e-mails the outbox holds, every EMAIL_OUTBOX_INTERVAL_MS while the server runs. */
  emailWorker: { start(): void; stop(): Promise<void> };
  /** The gateway, built on first use (its URLs are the cloud's public ones). */
  gateway(): PaymentGateway;
  /** The app's e-mail (the visitors' booking e-mails, the operators' alerts). */
  mailer: Mailer;
}

export function buildPaymentModule(context: AppContext, options: PaymentAreaOptions): PaymentModule {
  const { store, clock, logger, events, services, env } = context;
  const paymentConfig = options.payment ?? env.payment;
  const mailer = options.mailer ?? createMailer(options.mail ?? env.mail);
  const publicUrl = options.publicUrl ?? (() => env.publicUrl);
  const random = options.random ?? cryptoRandom;
  let gateway: PaymentGateway | null = null;
  const gatewayOnce = () =>
    (gateway ??= createPaymentGateway(paymentConfig, { publicUrl: publicUrl(), logger }));

  const myBooking = new MyBookingService(store, clock);
  const emails = new BookingEmailService({
    mailer,
    logger,
    store,
    clock,
    myBookingUrl: async (booking) => `${publicUrl()}${myBookingPath((await myBooking.mint(booking)).token)}`,
  });
  const payments = new PaymentService({
    store,
    clock,
    logger,
    events,
    bookings: services.bookings,
    locations: services.locations,
    emails,
    provider: () => gatewayOnce().provider,
    responseUrls: () => bookingPaymentUrls(publicUrl()),
    random,
  });
  const scheduler = new MorningScheduler({
    store,
    clock,
    logger,
    bookings: services.bookings,
    emails,
    random,
  });
  return { payments, emails, scheduler, emailWorker: emails.worker(), gateway: gatewayOnce, mailer };
}
