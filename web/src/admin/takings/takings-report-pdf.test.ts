import { describe, expect, it } from 'vitest';
import { computeMonthlyTakings, formatEuros, type TakingsBooking } from '@deposito/protocol';
import { buildConnectionTestPdf, CONNECTION_TEST_PDF_FILE_NAME } from './connection-test-pdf';
import { CONTENT_BOTTOM, FOOTER_BASELINE, pdfBytes } from '@deposito/protocol/pdf/pdf-layout';
import { pdfPageTexts, readPdfText } from '@deposito/protocol/pdf/pdf-text.testing';
import { buildTakingsReportPdf, takingsReportFileName, takingsReportTitle } from './takings-report-pdf';

const COMPANY = 'Deposito Bagagli S.r.l. – P.IVA 01234567890';

/** A booking at Roma Termini, paid `cents` when it was made. */
function romaBooking(
  transactionId: string,
  status: TakingsBooking['status'],
  createdAt: string,
  priceDiscountedCents: number,
  extra: Partial<TakingsBooking> = {},
): TakingsBooking {
  return { transactionId, locationKey: 'roma', status, createdAt, priceDiscountedCents, ...extra };
}

/** July 2026 at Roma Termini and Campo London: `bookings`, and 5 € at Roma's kiosk on the 13th. */
function romaAndCampoJuly(
  bookings: TakingsBooking[],
  extra: Partial<Parameters<typeof computeMonthlyTakings>[0]> = {},
) {
  return computeMonthlyTakings({
    month: '2026-07',
    locations: [
      { key: 'roma', name: 'Roma Termini', zone: 'Europe/Rome' },
      { key: 'campo', name: 'Campo London', zone: 'Europe/London' },
    ],
    bookings,
    totem: { roma: [{ date: '2026-07-13T10:00:00+02:00', amountCents: 500 }] },
    ...extra,
  });
}

const smallReport = romaAndCampoJuly([
  romaBooking('TX-000001', 'confirmed', '2026-07-13T09:00:00Z', 123450),
  romaBooking('TX-000002', 'scheduled', '2026-07-01T09:00:00Z', 1250),
]);

/** Four locations taking money every day of a 31-day month: far more than one page. */
function largeReport() {
  const locations = ['roma', 'oca', 'firenze', 'campo'].map((key) => ({
    key,
    name: key.toUpperCase(),
    zone: key === 'campo' ? ('Europe/London' as const) : ('Europe/Rome' as const),
  }));
  const bookings: TakingsBooking[] = locations.flatMap((location, l) =>
    Array.from({ length: 31 }, (_, d) => ({
      transactionId: `TX-${location.key}-${d}`,
      locationKey: location.key,
      status: 'confirmed' as const,
      createdAt: `2026-07-${String(d + 1).padStart(2, '0')}T10:00:00Z`,
      priceDiscountedCents: 1000 + 37 * d + l,
    })),
  );
  const totem = Object.fromEntries(
    locations.map((location) => [
      location.key,
      Array.from({ length: 31 }, (_, d) => ({
        date: `2026-07-${String(d + 1).padStart(2, '0')}T12:00:00Z`,
        amountCents: 250 * (d % 5),
      })),
    ]),
  );
  return computeMonthlyTakings({ month: '2026-07', locations, bookings, totem });
}

describe('takings report PDF', () => {
  it('names files and titles after the month', () => {
    expect(takingsReportFileName('2026-07')).toBe('incassi_2026_07.pdf');
    expect(takingsReportTitle('2026-07')).toBe('REPORT INCASSI LUGLIO 2026');
    expect(CONNECTION_TEST_PDF_FILE_NAME).toBe('test_connessioni_promotec.pdf');
    expect(() => takingsReportFileName('luglio')).toThrow();
  });

  it('prints title, summary, each location with its days and total, the grand total and the footer', () => {
    const doc = buildTakingsReportPdf(smallReport, {
      month: '2026-07',
      companyName: COMPANY,
      compress: false,
    });
    expect(doc.getNumberOfPages()).toBe(1);
    const [text] = pdfPageTexts(pdfBytes(doc));
    const lines = text.split('\n');

    expect(lines[0]).toBe('REPORT INCASSI LUGLIO 2026');
    expect(lines).toContain('Tutte le location');
    for (const [label, value] of [
      ['Giorni con incassi', '2'],
      ['Totale incassi', formatEuros(125200)],
      ['Incassi online', formatEuros(124700)],
      ['Incassi in sede (totem)', formatEuros(500)],
      ['Sedi attive', '1 di 2'],
    ]) {
      expect(lines[lines.indexOf(label) + 1]).toBe(value);
    }
    // Roma's days, oldest first: weekday, date, online, totem, total.
    const days = [
      ['Mercoledì', '01/07/2026', 1250, 0, 1250],
      ['Lunedì', '13/07/2026', 123450, 500, 123950],
    ] as const;
    const dayLines = days.map(([weekday, date, ...cents]) => {
      const at = lines.indexOf(weekday);
      expect(lines.slice(at, at + 5)).toEqual([weekday, date, ...cents.map((amount) => formatEuros(amount))]);
      return at;
    });
    expect(dayLines[1]).toBeGreaterThan(dayLines[0]!);
    expect(lines).toContain('Totale Roma Termini');
    expect(lines).toContain('2 giorni · Ultimo 13/07/2026');
    expect(lines).toContain('Campo London');
    expect(lines).toContain('Nessun incasso nel mese');
    expect(lines[lines.indexOf('TOTALE GENERALE') + 1]).toBe(formatEuros(125200));
    expect(lines).toContain(COMPANY);
    expect(lines).toContain('Pagina 1 di 1');
  });

  it('follows the requested day order', () => {
    const doc = buildTakingsReportPdf(smallReport, {
      companyName: COMPANY,
      compress: false,
      order: 'amount-desc',
    });
    const lines = pdfPageTexts(pdfBytes(doc))[0].split('\n');
    expect(lines.indexOf('13/07/2026')).toBeLessThan(lines.indexOf('01/07/2026'));
  });

  it('titles a single-location report with the location and no active-locations line', () => {
    const single = { ...smallReport, locations: smallReport.locations.slice(0, 1), activeLocations: 1 };
    const lines = pdfPageTexts(
      pdfBytes(buildTakingsReportPdf(single, { companyName: COMPANY, compress: false })),
    )[0].split('\n');
    expect(lines[1]).toBe('Roma Termini');
    expect(lines).not.toContain('Sedi attive');
  });

  it('spreads a large month over several pages, never writing below the content limit, numbered n di N', () => {
    const report = largeReport();
    const doc = buildTakingsReportPdf(report, { companyName: COMPANY, compress: false });
    const pages = readPdfText(pdfBytes(doc));
    expect(pages.length).toBe(doc.getNumberOfPages());
    expect(pages.length).toBeGreaterThanOrEqual(4);

    pages.forEach((items, i) => {
      const texts = items.map((item) => item.text);
      expect(texts).toContain(`Pagina ${i + 1} di ${pages.length}`);
      expect(texts).toContain(COMPANY);
      for (const item of items) {
        const isFooter = Math.abs(item.y - FOOTER_BASELINE) < 0.5;
        if (!isFooter) expect(item.y, item.text).toBeLessThanOrEqual(CONTENT_BOTTOM);
      }
    });

    const all = pages.flat().map((item) => item.text);
    // Every day of every location is printed once, tables continuing across pages with their head repeated.
    expect(all.filter((text) => text === '31/07/2026')).toHaveLength(4);
    expect(all.filter((text) => text === 'Giorno').length).toBeGreaterThan(4);
    for (const key of ['ROMA', 'OCA', 'FIRENZE', 'CAMPO']) expect(all).toContain(`Totale ${key}`);
    expect(all[all.indexOf('TOTALE GENERALE') + 1]).toBe(formatEuros(report.totals.totalCents));
    const lastPage = pages.at(-1)!.map((item) => item.text);
    expect(lastPage).toContain('TOTALE GENERALE');
    expect(lastPage.some((text) => text.startsWith('Sono conteggiate come incassi online solo'))).toBe(true);
    expect(all.filter((text) => text.startsWith('Sono conteggiate'))).toHaveLength(1);
    // A list continued on a new page says whose it is.
    expect(all.some((text) => /^(ROMA|OCA|FIRENZE|CAMPO) \(segue\)$/.test(text))).toBe(true);
  });

  it('says on the first page, in the location and at the grand total when kiosk data is missing', () => {
    const reason = '10.0.1.7:11001 non raggiungibile (ECONNREFUSED)';
    const incomplete = romaAndCampoJuly(
      [
        romaBooking('TX-000001', 'confirmed', '2026-07-13T09:00:00Z', 1250),
        romaBooking('TX-000002', 'confirmed', '2026-07-13T10:00:00Z', 4000, { isTest: true }),
      ],
      { totemMissing: { campo: reason } },
    );
    const all = pdfPageTexts(
      pdfBytes(buildTakingsReportPdf(incomplete, { companyName: COMPANY, compress: false })),
    );
    expect(all).toHaveLength(1);
    const lines = all[0].split('\n');
    // Before the summary: the box naming the location and the reason.
    expect(lines.indexOf('ATTENZIONE: TOTALE INCOMPLETO')).toBeLessThan(lines.indexOf('Riepilogo'));
    const warning = 'Dati totem non disponibili per Campo London: totale incompleto.';
    expect(lines.filter((line) => line === warning)).toHaveLength(2);
    expect(lines).toContain(`Motivo: ${reason}`);
    expect(lines[lines.indexOf('Totale incassi') + 1]).toBe(`${formatEuros(1750)} (incompleto)`);
    expect(lines[lines.indexOf('Incassi in sede (totem)') + 1]).toBe(`${formatEuros(500)} (incompleto)`);
    expect(lines[lines.indexOf('Incassi online') + 1]).toBe(formatEuros(1250));
    expect(lines[lines.indexOf('Prenotazioni di test (escluse)') + 1]).toBe(`1 · ${formatEuros(4000)}`);
    expect(lines).toContain(`Prenotazioni di test (escluse): 1 · ${formatEuros(4000)}`);
    expect(lines[lines.indexOf('TOTALE GENERALE (INCOMPLETO)') + 1]).toBe(formatEuros(1750));
    expect(lines).not.toContain('TOTALE GENERALE');

    // The one-location report of the failing location says it too.
    const campoOnly = {
      ...incomplete,
      locations: incomplete.locations.slice(1),
      totals: { onlineCents: 0, refundCents: 0, totemCents: 0, totalCents: 0 },
      testBookings: { count: 0, cents: 0 },
      totemMissing: incomplete.totemMissing,
      activeLocations: 0,
    };
    const single = pdfPageTexts(
      pdfBytes(buildTakingsReportPdf(campoOnly, { companyName: COMPANY, compress: false })),
    )[0].split('\n');
    expect(single[1]).toBe('Campo London');
    expect(single).toContain('ATTENZIONE: TOTALE INCOMPLETO');
    expect(single.filter((line) => line === warning)).toHaveLength(2);
    expect(single).toContain('TOTALE GENERALE (INCOMPLETO)');

    // A complete month says nothing of the kind.
    const complete = pdfPageTexts(
      pdfBytes(buildTakingsReportPdf(smallReport, { companyName: COMPANY, compress: false })),
    )[0];
    expect(complete).not.toContain('INCOMPLETO');
    expect(complete).not.toContain('incompleto');
    expect(complete).not.toContain('Prenotazioni di test');
  });

  it('carries a long list of unreadable kiosks over pages, never below the content limit', () => {
    const locations = Array.from({ length: 40 }, (_, i) => ({
      key: `sede${i}`,
      name: `Sede numero ${i}`,
      zone: 'Europe/Rome' as const,
    }));
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations,
      bookings: [],
      totemMissing: Object.fromEntries(
        locations.map((location) => [
          location.key,
          `risposta non valida da 10.0.0.1:11000: ${'x'.repeat(200)}`,
        ]),
      ),
    });
    const pages = readPdfText(
      pdfBytes(buildTakingsReportPdf(report, { companyName: COMPANY, compress: false })),
    );
    for (const items of pages) {
      for (const item of items) {
        if (Math.abs(item.y - FOOTER_BASELINE) >= 0.5)
          expect(item.y, item.text).toBeLessThanOrEqual(CONTENT_BOTTOM);
      }
    }
    const all = pages.flat().map((item) => item.text);
    expect(
      all.filter((text) => text.startsWith('ATTENZIONE: TOTALE INCOMPLETO (segue)')).length,
    ).toBeGreaterThan(0);
    for (const location of locations) {
      // Once in the box, once under the location's heading.
      expect(
        all.filter((text) => text === `Dati totem non disponibili per ${location.name}: totale incompleto.`),
      ).toHaveLength(2);
    }
  });

  it('compresses by default and refuses to export a report of another month', () => {
    const compressed = pdfBytes(buildTakingsReportPdf(largeReport(), { companyName: COMPANY }));
    const plain = pdfBytes(buildTakingsReportPdf(largeReport(), { companyName: COMPANY, compress: false }));
    expect(new TextDecoder().decode(compressed.slice(0, 5))).toBe('%PDF-');
    expect(compressed.length).toBeLessThan(plain.length / 2);
    expect(() => buildTakingsReportPdf(smallReport, { month: '2026-08', companyName: COMPANY })).toThrow(
      RangeError,
    );
  });
});

describe('connection test PDF', () => {
  it('shows each location with its status, IP, port and error', () => {
    const doc = buildConnectionTestPdf(
      [
        { key: 'roma', name: 'Roma Termini', recipient: '10.0.0.5', port: 11000, success: true },
        {
          key: 'campo',
          name: 'Campo London',
          recipient: '10.0.1.7',
          port: 11001,
          success: false,
          error: 'nessuna risposta da 10.0.1.7:11001 entro 10000 ms',
        },
      ],
      { companyName: COMPANY, compress: false, testedAt: new Date('2026-07-15T08:30:00Z') },
    );
    const lines = pdfPageTexts(pdfBytes(doc))[0].split('\n');
    expect(lines[0]).toBe('TEST CONNESSIONI PROMOTEC');
    expect(lines[1]).toBe('1 di 2 location connesse · Eseguito il 15/07/2026 10:30');
    const roma = lines.indexOf('Roma Termini');
    expect(lines.slice(roma, roma + 4)).toEqual(['Roma Termini', 'Connesso', '10.0.0.5', '11000']);
    const campo = lines.indexOf('Campo London');
    expect(lines.slice(campo, campo + 4)).toEqual(['Campo London', 'Errore', '10.0.1.7', '11001']);
    expect(lines.join(' ')).toContain('nessuna risposta da 10.0.1.7:11001 entro 10000 ms');
    expect(lines).toContain('Pagina 1 di 1');
  });
});
