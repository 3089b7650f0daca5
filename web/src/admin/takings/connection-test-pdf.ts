// The Promotec connection-test report the takings page exports: per location its status, address and error.
import type { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import { DateTime } from 'luxon';
import type { ConnectionTestResult, LocationConnection } from '@deposito/protocol';
import {
  BAND_FILL,
  ERROR_RED,
  INK,
  PAGE_MARGIN,
  PageCursor,
  STRIPE_FILL,
  TOTAL_GREEN,
  drawFooters,
  drawTitle,
  newReportDocument,
  tableBottomMargin,
  type PdfDocumentOptions,
} from '@deposito/protocol/pdf/pdf-layout';

export const CONNECTION_TEST_PDF_FILE_NAME = 'test_connessioni_promotec.pdf';

/** One tested location: its connection settings and the test's result. */
export type ConnectionTestReportRow = LocationConnection & Omit<ConnectionTestResult, 'key'>;

export interface ConnectionTestPdfOptions extends PdfDocumentOptions {
  companyName?: string;
  /** Printed as "Eseguito il …" (Europe/Rome) when given. */
  testedAt?: Date;
}

export function buildConnectionTestPdf(
  results: readonly ConnectionTestReportRow[],
  options: ConnectionTestPdfOptions = {},
): jsPDF {
  const title = 'TEST CONNESSIONI PROMOTEC';
  const doc = newReportDocument(title, options);
  const cursor = new PageCursor(doc);
  const connected = results.filter((result) => result.success).length;
  const tested = options.testedAt
    ? ` · Eseguito il ${DateTime.fromJSDate(options.testedAt, { zone: 'Europe/Rome' }).toFormat('dd/MM/yyyy HH:mm')}`
    : '';
  drawTitle(cursor, title, `${connected} di ${results.length} location connesse${tested}`);

  autoTable(doc, {
    startY: cursor.y,
    margin: { left: PAGE_MARGIN, right: PAGE_MARGIN, top: PAGE_MARGIN, bottom: tableBottomMargin(doc) },
    theme: 'plain',
    head: [['Location', 'Stato', 'IP', 'Porta', 'Errore']],
    body: results.map((result) => [
      result.name,
      result.success ? 'Connesso' : 'Errore',
      result.recipient,
      String(result.port),
      result.success ? '' : (result.error ?? ''),
    ]),
    showHead: 'everyPage',
    styles: { font: 'helvetica', fontSize: 9, textColor: INK, cellPadding: 2.5, valign: 'top' },
    headStyles: { fillColor: BAND_FILL, fontStyle: 'bold' },
    alternateRowStyles: { fillColor: STRIPE_FILL },
    columnStyles: {
      0: { cellWidth: 32 },
      1: { cellWidth: 22, fontStyle: 'bold' },
      2: { cellWidth: 30 },
      3: { cellWidth: 16 },
    },
    didParseCell: (data) => {
      if (data.section === 'body' && data.column.index === 1) {
        data.cell.styles.textColor = results[data.row.index].success ? TOTAL_GREEN : ERROR_RED;
      }
    },
  });
  drawFooters(doc, options.companyName ?? '');
  return doc;
}
