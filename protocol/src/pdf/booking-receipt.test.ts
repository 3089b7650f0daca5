import { describe, expect, it } from 'vitest';
import { drawBookingReceipt, includedVatCents, type BookingReceipt } from './booking-receipt';
import { pdfPageTexts } from './pdf-text.testing';

const RECEIPT: BookingReceipt = {
  language: 'it',
  merchant: 'Deposito S.r.l.\nVia Roma 1, 00100 Roma\nP.IVA 01234567890',
  vatPercent: 22,
  reference: 'DEP-1234',
  paidAt: new Date('2026-03-27T08:05:00Z'),
  location: { name: 'Deposito Termini', address: 'Via Giolitti 34', zone: 'Europe/Rome' },
  startAt: new Date('2026-03-27T10:00:00Z'),
  endAt: new Date('2026-03-27T13:00:00Z'),
  size: 'large',
  quantity: 2,
  priceCents: 1600,
  discountedPriceCents: 1100,
  discountCode: 'FIVEOFF',
  feeCents: 50,
  totalCents: 1150,
};

const text = (receipt: BookingReceipt) => {
  const pages = pdfPageTexts(drawBookingReceipt(receipt, { compress: false }));
  expect(pages).toHaveLength(1);
  return pages[0]!.replace(/\u00a0/g, ' ');
};

describe('the booking receipt', () => {
  it('names the merchant, the booking in the location time, each amount and the VAT included', () => {
    const page = text(RECEIPT);
    for (const line of [
      'Ricevuta',
      'Deposito bagagli – prenotazione DEP-1234',
      'Deposito S.r.l.',
      'Via Roma 1, 00100 Roma',
      'P.IVA 01234567890',
      'DEP-1234',
      // 10:00 UTC is 11:00 in Rome in March (before the clocks change on the 29th).
      '27/03/2026 11:00',
      '27/03/2026 14:00',
      '2 × locker grande',
      '16,00 €',
      'Sconto (FIVEOFF)',
      '- 5,00 €',
      'Commissione di servizio',
      '0,50 €',
      'Totale pagato',
      '11,50 €',
      'di cui IVA 22%',
      '2,07 €',
      'Pagina 1 di 1',
    ]) {
      expect(page).toContain(line);
    }
    expect(page).not.toContain('Addebito minimo');
  });

  it('shows the top-up to the minimum charge, and no VAT line at 0 %', () => {
    const page = text({
      ...RECEIPT,
      vatPercent: 0,
      quantity: 1,
      priceCents: 500,
      discountedPriceCents: 0,
      totalCents: 100,
    });
    expect(page).toContain('Addebito minimo con carta');
    expect(page).toContain('0,50 €');
    expect(page).toContain('1,00 €');
    expect(page).not.toContain('di cui IVA');
  });

  it('is in the booking language; Japanese visitors get it in English (the PDF fonts have no kana)', () => {
    expect(text({ ...RECEIPT, language: 'es' })).toContain('Total pagado');
    const japanese = text({ ...RECEIPT, language: 'jp' });
    expect(japanese).toContain('Total paid');
    expect(japanese).toContain('of which VAT 22%');
    expect(japanese).toContain('€11.50');
  });

  it('works out the VAT included in a gross amount to the cent', () => {
    expect(includedVatCents(1150, 22)).toBe(207);
    expect(includedVatCents(1220, 22)).toBe(220);
    expect(includedVatCents(100, 10)).toBe(9);
    expect(includedVatCents(1000, 0)).toBe(0);
  });
});
