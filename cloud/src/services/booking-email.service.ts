import { randomUUID } from 'node:crypto';
import { amountInCents } from '@deposito/protocol';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { sendBookingEmail, type BookingEmailData, type BookingEmailKind } from '../mail/booking-email';
import type { Mailer } from '../mail/mailer';
import type { BookingRecord } from '../store/booking.repository';
import type { OutboxEmail } from '../store/email-outbox.repository';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import { activeLockerNumbers, readStay } from './booking-extension.service';
import { bookingReceiptPdf, hasReceipt, receiptFileName } from './booking-receipt';
import type { SettingsService } from './settings.service';

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
    lockerIds: activeLockerNumbers(booking),
    pin: booking.pin,
    totalCents: amountInCents(booking.totalCents),
  };
}

/** How long a sender keeps an e-mail to itself before another may try it (a crash mid-send). */
export const EMAIL_LEASE_MS = 60_000;
/**
 * How long after its claim an e-mail of a sender that is gone (its process no longer recorded as
 * running) waits for another: longer than a process takes from its first claim to being recorded.
 */
export const GONE_SENDER_GRACE_MS = 10_000;
/** The worker's pass over due e-mails. */
export const EMAIL_OUTBOX_INTERVAL_MS = 15_000;
/** Retries wait 30 s, 1 min, 2 min… up to an hour between attempts. */
const RETRY_BASE_MS = 30_000;
const RETRY_MAX_MS = 60 * 60_000;
/** Attempts after which the operators are told that a visitor has not been reached. */
const ALERT_AFTER_ATTEMPTS = 5;
const BATCH = 20;

const BOOKING_EMAIL_KINDS: readonly BookingEmailKind[] = [
  'confirmation',
  'scheduled',
  'todayPin',
  'refund',
  'extension',
];
/** The e-mails that carry the booking's receipt: those confirming a payment. */
const WITH_RECEIPT: readonly BookingEmailKind[] = ['confirmation', 'scheduled', 'extension'];

/**
 * The outbox kind of a visitor's resend of `kind` (one booking's kinds are queued once each, so
 * each resend is its own row): sent as `kind`, with a fresh private link.
 */
export function resendEmailKind(kind: BookingEmailKind): string {
  return `${kind}:resend:${randomUUID()}`;
}

/**
 * The e-mail "send it again" sends for a booking as it is now: the confirmation with its PIN once
 * it has one, the scheduled notice while its PIN is still to come; null when it has no e-mail
 * address or nothing the visitor could use (not paid, cancelled, over).
 */
export function resendableEmail(
  booking: Pick<BookingRecord, 'status' | 'pin' | 'customer'>,
): 'confirmation' | 'scheduled' | null {
  if (!booking.customer.email) return null;
  if ((booking.status === 'confirmed' || booking.status === 'confirmed_late') && booking.pin !== null)
    return 'confirmation';
  return booking.status === 'scheduled' ? 'scheduled' : null;
}

/** The e-mail a queued kind sends (`confirmation:resend:…` sends a confirmation). */
function baseEmailKind(kind: string): string {
  return kind.split(':', 1)[0]!;
}

export interface BookingEmailServiceDeps {
  mailer: Mailer;
  logger: Logger;
  store: Store;
  clock: Clock;
  /** The merchant and VAT rate of the receipts. */
  settings: Pick<SettingsService, 'system'>;
  /**
   * A fresh private link to the booking's page for each e-mail that is written (only its hash is
   * stored, so the token exists nowhere but in the e-mail); no link when absent.
   */
  myBookingUrl?: (booking: BookingRecord) => Promise<string>;
  /**
   * The cloud process, as its bridge hub records it in `cloud_processes` while it runs: once it is
   * gone from there, the e-mails it was sending go to another sender; a sender of its own otherwise.
   */
  processId?: string;
}

/**
 * Sends the customer's booking e-mails from the durable outbox: each is a row written with the
 * status change that called for it (so a crash after the commit loses nothing), sent by whoever
 * claims it first (the request that made it, or the worker's periodic pass), retried with backoff
 * and marked sent once. A re-send after a crash mid-send carries the same Message-ID and replaces
 * the same outbox file. A mail failure never undoes or fails the booking's change.
 */
export class BookingEmailService {
  private readonly sender: string;

  constructor(private readonly deps: BookingEmailServiceDeps) {
    this.sender = deps.processId ?? `emails:${randomUUID()}`;
  }

  /** Sends what is due now (only one booking's e-mails when given); how many went out. */
  async deliver(transactionId?: string): Promise<number> {
    const { store, clock, logger } = this.deps;
    const now = clock.now();
    const until = now.getTime() + EMAIL_LEASE_MS;
    const lease = {
      by: this.sender,
      until: new Date(until),
      goneSendersUntil: new Date(until - GONE_SENDER_GRACE_MS),
    };
    const claimed = await store.emailOutbox.claimDue(now, lease, BATCH, transactionId);
    let sent = 0;
    for (const email of claimed) {
      try {
        if (await this.sendOne(email)) sent += 1;
      } catch (error) {
        const attempts = email.attempts + 1;
        const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempts - 1));
        await store.emailOutbox.markFailed(email.id, String(error), new Date(clock.now().getTime() + wait));
        logger.error(
          { err: error, transactionId: email.transactionId, kind: email.kind, attempts },
          'booking e-mail failed; will retry',
        );
        if (attempts === ALERT_AFTER_ATTEMPTS) {
          await store.errorLog.add({
            at: clock.now(),
            type: 'email',
            locationKey: null,
            lockerId: null,
            message: `The ${email.kind} e-mail of booking ${email.transactionId} could not be sent after ${attempts} attempts (${String(error).slice(0, 200)}); retrying`,
          });
        }
      }
    }
    return sent;
  }

  /** A periodic pass of {@link deliver} while the server runs (the one that sends after a crash). */
  worker(intervalMs = EMAIL_OUTBOX_INTERVAL_MS): { start(): void; stop(): Promise<void> } {
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> | null = null;
    const tick = () => {
      if (running) return;
      running = this.deliver()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'e-mail outbox pass failed'))
        .finally(() => {
          running = null;
        });
    };
    return {
      start() {
        if (timer) return;
        tick();
        timer = setInterval(tick, intervalMs);
        timer.unref();
      },
      async stop() {
        if (timer) clearInterval(timer);
        timer = null;
        await running;
      },
    };
  }

  /** The first booking of the stay an extension belongs to. */
  private async stayRoot(extension: BookingRecord): Promise<BookingRecord | null> {
    const stayId = await this.deps.store.bookingExtensions.stayOf(extension.transactionId);
    return stayId ? this.deps.store.bookings.get(stayId) : null;
  }

  private async sendOne(email: OutboxEmail): Promise<boolean> {
    const { store, clock, logger } = this.deps;
    const booking = await store.bookings.get(email.transactionId);
    const location = booking ? await store.locations.get(booking.locationKey) : null;
    const kind = BOOKING_EMAIL_KINDS.find((known) => known === baseEmailKind(email.kind));
    const data = booking && location && kind ? bookingEmailData(booking, location) : null;
    if (!data || !kind) {
      logger.warn(
        { transactionId: email.transactionId, kind: email.kind },
        'booking e-mail has no booking, location or address; nothing sent',
      );
      await store.emailOutbox.markSent(email.id, clock.now(), 'not-sent:no-recipient');
      return false;
    }
    const messageId = `<booking-${email.id}-${email.kind}@deposito>`;
    // An extension is told as part of its stay: from the stay's start, with the stay's page.
    const stay = kind === 'extension' && booking ? await this.stayRoot(booking) : null;
    if (stay) data.startIso = stay.startAt.toISOString();
    // A stay's own e-mails (a confirmation sent again) give its end with the paid extensions.
    if (booking && kind !== 'extension' && kind !== 'refund') {
      const whole = await readStay(store, booking);
      if (whole?.root.transactionId === booking.transactionId) data.endIso = whole.endAt.toISOString();
    }
    if (kind !== 'refund' && booking && this.deps.myBookingUrl) {
      data.myBookingUrl = await this.deps.myBookingUrl(stay ?? booking);
    }
    // A paid booking's confirmation (or scheduled or extension e-mail) carries its receipt.
    const receipt =
      booking && location && WITH_RECEIPT.includes(kind) && hasReceipt(booking)
        ? [
            {
              filename: receiptFileName(booking.transactionId),
              contentType: 'application/pdf',
              content: Buffer.from(await bookingReceiptPdf(this.deps.settings, booking, location)),
            },
          ]
        : [];
    const sent = await sendBookingEmail(
      this.deps.mailer,
      kind,
      data,
      { messageId, createdAt: email.createdAt },
      receipt,
    );
    await store.emailOutbox.markSent(email.id, clock.now(), sent.messageId);
    logger.info(
      { transactionId: email.transactionId, kind, messageId: sent.messageId },
      'booking e-mail sent',
    );
    return true;
  }
}
