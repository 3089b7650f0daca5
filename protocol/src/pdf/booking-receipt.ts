// The visitor's receipt of a paid booking (issue 16): drawn by the cloud for the booking page's
// download and the confirmation e-mail's attachment, with the page layout the takings reports use.
import { DateTime } from 'luxon';
import type { Language } from '../booking/note';
import type { LockerSize } from '../pricing/locker-size';
import { formatEuros } from '../pricing/money';
import {
  contentWidth,
  drawFooters,
  drawTitle,
  INK,
  MUTED,
  newReportDocument,
  PAGE_MARGIN,
  PageCursor,
  pdfBytes,
  STRIPE_FILL,
  type PdfDocumentOptions,
} from './pdf-layout';

export interface BookingReceipt {
  language: Language;
  /** The merchant as configured (system setting RECEIPT_MERCHANT): name first, one line each. */
  merchant: string;
  /** VAT included in the amount, in percent (system setting RECEIPT_VAT_PERCENT); 0 prints no VAT line. */
  vatPercent: number;
  reference: string;
  paidAt: Date;
  location: { name: string; address: string; zone: string };
  startAt: Date;
  endAt: Date;
  size: LockerSize;
  quantity: number;
  /** Integer cents, as the booking stored them; `totalCents` is what the card was charged. */
  priceCents: number;
  discountedPriceCents: number;
  discountCode: string | null;
  feeCents: number;
  totalCents: number;
}

interface ReceiptTexts {
  title: string;
  subtitle: (reference: string) => string;
  merchant: string;
  booking: string;
  reference: string;
  paidAt: string;
  location: string;
  from: string;
  to: string;
  lockers: (quantity: number, size: string) => string;
  sizes: Record<LockerSize, string>;
  price: string;
  discount: (code: string) => string;
  fee: string;
  minimumCharge: string;
  total: string;
  vat: (percent: string) => string;
  times: (zone: string) => string;
  page: (page: number, pages: number) => string;
}

const EN: ReceiptTexts = {
  title: 'Receipt',
  subtitle: (reference) => `Luggage storage – booking ${reference}`,
  merchant: 'Issued by',
  booking: 'Booking',
  reference: 'Booking reference',
  paidAt: 'Paid on',
  location: 'Location',
  from: 'From',
  to: 'To',
  lockers: (quantity, size) => `${quantity} × ${size} locker`,
  sizes: { standard: 'standard', large: 'large' },
  price: 'Locker price',
  discount: (code) => `Discount (${code})`,
  fee: 'Service fee',
  minimumCharge: 'Minimum card charge',
  total: 'Total paid',
  vat: (percent) => `of which VAT ${percent}%`,
  times: (zone) => `Times in the location's time zone (${zone}).`,
  page: (page, pages) => `Page ${page} of ${pages}`,
};

/**
 * The receipt's words. Japanese visitors get the English receipt: the PDF standard fonts carry no
 * Japanese glyphs, and a receipt must be legible before it is localised.
 */
const TEXTS: Record<Language, ReceiptTexts> = {
  it: {
    title: 'Ricevuta',
    subtitle: (reference) => `Deposito bagagli – prenotazione ${reference}`,
    merchant: 'Emessa da',
    booking: 'Prenotazione',
    reference: 'Codice prenotazione',
    paidAt: 'Pagata il',
    location: 'Sede',
    from: 'Dal',
    to: 'Al',
    lockers: (quantity, size) => `${quantity} × locker ${size}`,
    sizes: { standard: 'standard', large: 'grande' },
    price: 'Prezzo locker',
    discount: (code) => `Sconto (${code})`,
    fee: 'Commissione di servizio',
    minimumCharge: 'Addebito minimo con carta',
    total: 'Totale pagato',
    vat: (percent) => `di cui IVA ${percent}%`,
    times: (zone) => `Orari nel fuso orario della sede (${zone}).`,
    page: (page, pages) => `Pagina ${page} di ${pages}`,
  },
  en: EN,
  es: {
    title: 'Recibo',
    subtitle: (reference) => `Consigna de equipaje – reserva ${reference}`,
    merchant: 'Emitido por',
    booking: 'Reserva',
    reference: 'Código de reserva',
    paidAt: 'Pagado el',
    location: 'Sede',
    from: 'Desde',
    to: 'Hasta',
    lockers: (quantity, size) => `${quantity} × taquilla ${size}`,
    sizes: { standard: 'estándar', large: 'grande' },
    price: 'Precio de la taquilla',
    discount: (code) => `Descuento (${code})`,
    fee: 'Tarifa de servicio',
    minimumCharge: 'Cargo mínimo con tarjeta',
    total: 'Total pagado',
    vat: (percent) => `IVA incluido ${percent}%`,
    times: (zone) => `Horas en la zona horaria de la sede (${zone}).`,
    page: (page, pages) => `Página ${page} de ${pages}`,
  },
  jp: EN,
};

const NUMBER_LOCALE: Record<Language, string> = { it: 'it-IT', en: 'en-IE', es: 'es-ES', jp: 'en-IE' };

/** The VAT included in a gross amount at `percent`, in whole cents (the net rounded to the cent). */
export function includedVatCents(grossCents: number, percent: number): number {
  if (percent <= 0) return 0;
  return grossCents - Math.round((grossCents * 100) / (100 + percent));
}

/** Text the standard PDF fonts can print: narrow and thin spaces become plain ones. */
const printable = (text: string) => text.replace(/[\u202f\u2009]/g, ' ');

/** The receipt as PDF bytes (`compress: false` keeps the text readable by tests). */
export function drawBookingReceipt(receipt: BookingReceipt, options: PdfDocumentOptions = {}): Uint8Array {
  const t = TEXTS[receipt.language];
  const locale = NUMBER_LOCALE[receipt.language];
  const money = (cents: number) => printable(formatEuros(cents, locale));
  const when = (instant: Date) =>
    DateTime.fromJSDate(instant, { zone: receipt.location.zone }).toFormat('dd/MM/yyyy HH:mm');
  const merchantLines = receipt.merchant
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

  const doc = newReportDocument(`${t.title} ${receipt.reference}`, options);
  const cursor = new PageCursor(doc);
  drawTitle(cursor, t.title, t.subtitle(receipt.reference));
  const left = PAGE_MARGIN;
  const right = PAGE_MARGIN + contentWidth(doc);

  const heading = (text: string) => {
    doc
      .setFont('helvetica', 'bold')
      .setFontSize(11)
      .setTextColor(...INK);
    doc.text(text, left, cursor.y);
    cursor.y += 6;
  };
  const row = (label: string, value: string, strong = false) => {
    doc
      .setFont('helvetica', 'normal')
      .setFontSize(10)
      .setTextColor(...MUTED);
    doc.text(label, left, cursor.y);
    doc.setFont('helvetica', strong ? 'bold' : 'normal').setTextColor(...INK);
    const lines = doc.splitTextToSize(printable(value), 95) as string[];
    doc.text(lines, right, cursor.y, { align: 'right' });
    cursor.y += 5.5 * lines.length;
  };

  heading(t.merchant);
  doc.setFont('helvetica', 'normal').setFontSize(10);
  for (const line of merchantLines) {
    doc.text(printable(line), left, cursor.y);
    cursor.y += 5;
  }
  cursor.y += 5;

  heading(t.booking);
  row(t.reference, receipt.reference);
  row(t.paidAt, when(receipt.paidAt));
  row(t.location, `${receipt.location.name}, ${receipt.location.address}`);
  row(t.from, when(receipt.startAt));
  row(t.to, when(receipt.endAt));
  cursor.y += 5;

  const discount = receipt.priceCents - receipt.discountedPriceCents;
  const topUp = receipt.totalCents - receipt.discountedPriceCents - receipt.feeCents;
  doc.setFillColor(...STRIPE_FILL).rect(left, cursor.y - 4.5, right - left, 7, 'F');
  row(t.lockers(receipt.quantity, t.sizes[receipt.size]), money(receipt.priceCents));
  if (discount > 0) row(t.discount(receipt.discountCode ?? '—'), `- ${money(discount)}`);
  row(t.fee, money(receipt.feeCents));
  if (topUp > 0) row(t.minimumCharge, money(topUp));
  doc.setDrawColor(...MUTED).setLineWidth(0.3);
  doc.line(left, cursor.y - 2, right, cursor.y - 2);
  cursor.y += 3;
  row(t.total, money(receipt.totalCents), true);
  if (receipt.vatPercent > 0) {
    const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(receipt.vatPercent);
    row(t.vat(percent), money(includedVatCents(receipt.totalCents, receipt.vatPercent)));
  }
  cursor.y += 6;
  doc
    .setFont('helvetica', 'normal')
    .setFontSize(8)
    .setTextColor(...MUTED);
  doc.text(t.times(receipt.location.zone), left, cursor.y);

  drawFooters(doc, merchantLines[0] ?? '', t.page);
  return pdfBytes(doc);
}
