import { PAID_BOOKING_STATUSES, type BookingStatus } from '@deposito/protocol';
import { drawBookingReceipt } from '@deposito/protocol/pdf/booking-receipt';
import type { BookingRecord } from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';
import type { SettingsService } from './settings.service';

const PAID: readonly BookingStatus[] = PAID_BOOKING_STATUSES;

/** Whether a booking has a receipt: it is paid and honoured (a refund owed has none). */
export function hasReceipt(booking: Pick<BookingRecord, 'status' | 'totalCents'>): boolean {
  // Nothing paid (an operator's free extension): nothing to give a receipt for.
  return PAID.includes(booking.status) && booking.totalCents > 0;
}

export const receiptFileName = (transactionId: string) => `deposito-receipt-${transactionId}.pdf`;

/**
 * The receipt of a paid booking as PDF bytes, with the merchant and VAT rate of the system settings
 * now. Uncompressed: one page, a few kilobytes, and its text stays readable to tests and archives.
 */
export async function bookingReceiptPdf(
  settingsService: Pick<SettingsService, 'system'>,
  booking: BookingRecord,
  location: LocationRecord,
): Promise<Uint8Array> {
  const settings = await settingsService.system();
  return drawBookingReceipt(
    {
      language: booking.lang,
      merchant: settings.RECEIPT_MERCHANT,
      vatPercent: settings.RECEIPT_VAT_PERCENT,
      reference: booking.transactionId,
      paidAt: booking.paidAt ?? booking.updatedAt,
      location: { name: location.name, address: location.address, zone: location.zone },
      startAt: booking.startAt,
      endAt: booking.endAt,
      size: booking.size,
      quantity: booking.quantity,
      priceCents: booking.priceOriginalCents,
      discountedPriceCents: booking.priceDiscountedCents,
      discountCode: booking.discountCode,
      feeCents: booking.feeCents,
      totalCents: booking.totalCents,
    },
    { compress: false },
  );
}
