// The monthly takings report ("REPORT INCASSI {MESE}") the takings page exports (admin spec §9).
// It draws a report computed by @deposito/protocol, so the PDF shows the figures the page shows.
import type { jsPDF } from 'jspdf';
import { autoTable } from 'jspdf-autotable';
import { DateTime } from 'luxon';
import {
  formatEuros,
  italianMonthTitle,
  sortTakingsDays,
  takingsMonthSchema,
  type LocationTakings,
  type MonthlyTakingsReport,
  type TakingsSortOrder,
} from '@deposito/protocol';
import {
  BAND_FILL,
  CONTENT_BOTTOM,
  ERROR_RED,
  HEADER_FILL,
  INK,
  MUTED,
  PAGE_MARGIN,
  PageCursor,
  STRIPE_FILL,
  TOTAL_GREEN,
  contentWidth,
  drawFooters,
  drawTitle,
  newReportDocument,
  tableBottomMargin,
  type PdfDocumentOptions,
} from '@deposito/protocol/pdf/pdf-layout';
import { testBookingsText, totemMissingText } from './takings-caveat-text';

export interface TakingsReportPdfOptions extends PdfDocumentOptions {
  /** The company's legal name, printed in every footer. */
  companyName: string;
  /** When given, must be the report's month (guards against exporting a stale report). */
  month?: string;
  /** Order of each location's days; a printed report reads chronologically by default. */
  order?: TakingsSortOrder;
  /** Printed as "Generato il …" (Europe/Rome) when given. */
  generatedAt?: Date;
}

/** `'2026-07'` → `'incassi_2026_07.pdf'`. */
export function takingsReportFileName(month: string): string {
  return `incassi_${takingsMonthSchema.parse(month).replace('-', '_')}.pdf`;
}

/** `'REPORT INCASSI LUGLIO 2026'`. */
export function takingsReportTitle(month: string): string {
  return `REPORT INCASSI ${italianMonthTitle(month)}`;
}

const ROW_HEIGHT = 7;
const CONTINUATION_HEADING = 9;
const ONLINE_TAKINGS_NOTE =
  'Sono conteggiate come incassi online solo le prenotazioni con stato confermato o programmato.';
const AMOUNT_COLUMN = { halign: 'right' } as const;
const WARNING_FILL: [number, number, number] = [253, 236, 234];
const INCOMPLETE = ' (incompleto)';

/** A line of the missing-kiosk box and how it is written. */
interface WarningLine {
  text: string;
  style: 'headline' | 'reason' | 'closing';
}

const WARNING_LINE = 4.5;
const WARNING_HEAD = 13;
const WARNING_FOOT = 3;

/**
 * Before any figure, when kiosks could not be read: which locations, why, and that the totals lack
 * their totem payments. A red-edged box, so a printed report is never a quietly lower total; a
 * long list goes on over the next page in a box of its own ("segue"), a location's lines together.
 */
function drawTotemMissing(cursor: PageCursor, report: MonthlyTakingsReport): void {
  if (report.totemMissing.length === 0) return;
  const { doc } = cursor;
  const width = contentWidth(doc) - 10;
  // Measured in bold, the widest of the three styles.
  doc.setFont('helvetica', 'bold').setFontSize(9);
  const wrap = (text: string, style: WarningLine['style']): WarningLine[] =>
    (doc.splitTextToSize(text, width) as string[]).map((line) => ({ text: line, style }));
  const which = report.totemMissing.length === 1 ? 'questa sede' : 'queste sedi';
  const groups: WarningLine[][] = [
    ...report.totemMissing.map((missing) => [
      ...wrap(`${totemMissingText(missing.name)}.`, 'headline'),
      ...wrap(`Motivo: ${missing.reason}`, 'reason'),
    ]),
    wrap(
      `Gli importi totem e i totali di questo report non comprendono gli incassi totem di ${which}.`,
      'closing',
    ),
  ];

  // Split into boxes that each fit on their page.
  const boxes: WarningLine[][] = [[]];
  let room = CONTENT_BOTTOM - cursor.y - WARNING_HEAD - WARNING_FOOT;
  if (room < WARNING_LINE * groups[0].length) {
    cursor.newPage();
    room = CONTENT_BOTTOM - cursor.y - WARNING_HEAD - WARNING_FOOT;
  }
  for (const group of groups) {
    const needed = group.length * WARNING_LINE;
    if (needed > room && boxes.at(-1)!.length > 0) {
      boxes.push([]);
      room = CONTENT_BOTTOM - PAGE_MARGIN - WARNING_HEAD - WARNING_FOOT;
    }
    boxes.at(-1)!.push(...group);
    room -= needed;
  }

  boxes.forEach((lines, index) => {
    if (index > 0) cursor.newPage();
    const top = cursor.y;
    const height = WARNING_HEAD + lines.length * WARNING_LINE + WARNING_FOOT;
    doc.setFillColor(...WARNING_FILL).rect(PAGE_MARGIN, top, contentWidth(doc), height, 'F');
    doc.setFillColor(...ERROR_RED).rect(PAGE_MARGIN, top, 2, height, 'F');
    doc
      .setFont('helvetica', 'bold')
      .setFontSize(11)
      .setTextColor(...ERROR_RED);
    doc.text(`ATTENZIONE: TOTALE INCOMPLETO${index > 0 ? ' (segue)' : ''}`, PAGE_MARGIN + 5, top + 7);
    doc.setFontSize(9);
    lines.forEach((line, i) => {
      if (line.style === 'headline') doc.setFont('helvetica', 'bold').setTextColor(...ERROR_RED);
      else doc.setFont('helvetica', line.style === 'reason' ? 'normal' : 'italic').setTextColor(...INK);
      doc.text(line.text, PAGE_MARGIN + 5, top + WARNING_HEAD + i * WARNING_LINE);
    });
    cursor.y = top + height + 6;
  });
  doc.setTextColor(...INK);
}

function drawSummary(cursor: PageCursor, report: MonthlyTakingsReport): void {
  const { doc } = cursor;
  const incomplete = report.totemMissing.length > 0 ? INCOMPLETE : '';
  const rows: [string, string][] = [
    ['Giorni con incassi', String(report.daysWithTakings)],
    ['Totale incassi', `${formatEuros(report.totals.totalCents)}${incomplete}`],
    ['Incassi online', formatEuros(report.totals.onlineCents)],
    ['Incassi in sede (totem)', `${formatEuros(report.totals.totemCents)}${incomplete}`],
  ];
  // Refunds made in the month are already off the online and total figures.
  if (report.totals.refundCents > 0)
    rows.push(['Rimborsi (già sottratti)', `- ${formatEuros(report.totals.refundCents)}`]);
  if (report.locations.length > 1)
    rows.push(['Sedi attive', `${report.activeLocations} di ${report.locations.length}`]);
  if (report.testBookings.count > 0) {
    const [label, value] = testBookingsText(report.testBookings).split(': ');
    rows.push([label, value]);
  }
  const height = 12 + rows.length * 6;
  cursor.ensureSpace(height);
  doc.setFillColor(...BAND_FILL).roundedRect(PAGE_MARGIN, cursor.y, contentWidth(doc), height, 2, 2, 'F');
  doc
    .setFont('helvetica', 'bold')
    .setFontSize(12)
    .setTextColor(...INK);
  doc.text('Riepilogo', PAGE_MARGIN + 5, cursor.y + 7);
  doc.setFontSize(10);
  rows.forEach(([label, value], i) => {
    const y = cursor.y + 14 + i * 6;
    doc.setFont('helvetica', 'normal').text(label, PAGE_MARGIN + 5, y);
    doc.setTextColor(...(value.endsWith(INCOMPLETE) ? ERROR_RED : INK));
    doc.setFont('helvetica', 'bold').text(value, PAGE_MARGIN + 95, y, { align: 'right' });
    doc.setTextColor(...INK);
  });
  cursor.y += height + 8;
}

function drawLocation(cursor: PageCursor, location: LocationTakings, order: TakingsSortOrder): void {
  const { doc } = cursor;
  // Keep the heading (and the lines under it) with the table's head and first rows.
  const caveatLines = (location.totemMissing ? 1 : 0) + (location.testBookings.count > 0 ? 1 : 0);
  cursor.ensureSpace(10 + 7 * caveatLines + ROW_HEIGHT * Math.min(3, location.days.length + 1));
  doc.setFillColor(...HEADER_FILL).rect(PAGE_MARGIN, cursor.y, contentWidth(doc), 9, 'F');
  doc.setFont('helvetica', 'bold').setFontSize(11).setTextColor(255, 255, 255);
  doc.text(location.name, PAGE_MARGIN + 3, cursor.y + 6);
  doc.setFont('helvetica', 'normal').setFontSize(9);
  const days = location.daysWithTakings === 1 ? '1 giorno' : `${location.daysWithTakings} giorni`;
  const latest = location.latest ? ` · Ultimo ${location.latest.label}` : '';
  doc.text(`${days}${latest}`, PAGE_MARGIN + contentWidth(doc) - 3, cursor.y + 6, { align: 'right' });
  doc.setTextColor(...INK);
  cursor.y += 9;
  drawLocationCaveats(cursor, location);

  if (location.days.length === 0) {
    doc
      .setFont('helvetica', 'italic')
      .setFontSize(10)
      .setTextColor(...MUTED);
    doc.text('Nessun incasso nel mese', PAGE_MARGIN + 3, cursor.y + 6);
    doc.setTextColor(...INK);
    cursor.y += 14;
    return;
  }

  autoTable(doc, {
    startY: cursor.y,
    // On the pages a long list continues on, room above it for the location's name.
    margin: {
      left: PAGE_MARGIN,
      right: PAGE_MARGIN,
      top: PAGE_MARGIN + CONTINUATION_HEADING,
      bottom: tableBottomMargin(doc),
    },
    theme: 'plain',
    head: [['Giorno', 'Data', 'Online', 'Totem', 'Totale']],
    body: sortTakingsDays(location.days, order).map((day) => [
      day.weekday,
      day.label,
      formatEuros(day.onlineCents),
      formatEuros(day.totemCents),
      formatEuros(day.totalCents),
    ]),
    foot: [
      [
        {
          content: `Totale ${location.name}${location.totemMissing ? INCOMPLETE : ''}`,
          colSpan: 2,
        },
        formatEuros(location.onlineCents),
        formatEuros(location.totemCents),
        formatEuros(location.totalCents),
      ],
    ],
    showHead: 'everyPage',
    showFoot: 'lastPage',
    styles: {
      font: 'helvetica',
      fontSize: 9,
      textColor: INK,
      cellPadding: { top: 1.8, bottom: 1.8, left: 3, right: 3 },
    },
    headStyles: { fillColor: BAND_FILL, fontStyle: 'bold' },
    footStyles: { fillColor: BAND_FILL, fontStyle: 'bold' },
    alternateRowStyles: { fillColor: STRIPE_FILL },
    columnStyles: {
      0: { cellWidth: 38 },
      1: { cellWidth: 32 },
      2: AMOUNT_COLUMN,
      3: AMOUNT_COLUMN,
      4: { ...AMOUNT_COLUMN, fontStyle: 'bold' },
    },
    didParseCell: (data) => {
      if (data.section !== 'body' && data.column.index >= 2) data.cell.styles.halign = 'right';
      if (data.section === 'foot' && location.totemMissing) data.cell.styles.textColor = ERROR_RED;
    },
    didDrawPage: (data) => {
      if (data.pageNumber === 1) return;
      doc
        .setFont('helvetica', 'bold')
        .setFontSize(11)
        .setTextColor(...INK);
      doc.text(`${location.name} (segue)`, PAGE_MARGIN, PAGE_MARGIN + 5);
    },
  });
  cursor.afterTable(8);
}

/** Under a location's heading: its kiosk could not be read; its test bookings kept out. */
function drawLocationCaveats(cursor: PageCursor, location: LocationTakings): void {
  const { doc } = cursor;
  if (location.totemMissing) {
    doc
      .setFont('helvetica', 'bold')
      .setFontSize(9)
      .setTextColor(...ERROR_RED);
    doc.text(`${totemMissingText(location.name)}.`, PAGE_MARGIN + 3, cursor.y + 5);
    cursor.y += 7;
  }
  if (location.testBookings.count > 0) {
    doc
      .setFont('helvetica', 'normal')
      .setFontSize(9)
      .setTextColor(...MUTED);
    doc.text(testBookingsText(location.testBookings), PAGE_MARGIN + 3, cursor.y + 5);
    cursor.y += 7;
  }
  doc.setTextColor(...INK);
}

function drawGrandTotal(cursor: PageCursor, report: MonthlyTakingsReport): void {
  const { doc } = cursor;
  const incomplete = report.totemMissing.length > 0;
  // The bar and the note under it stay together.
  cursor.ensureSpace(30);
  const right = PAGE_MARGIN + contentWidth(doc) - 4;
  doc
    .setFillColor(...(incomplete ? ERROR_RED : TOTAL_GREEN))
    .roundedRect(PAGE_MARGIN, cursor.y, contentWidth(doc), 18, 2, 2, 'F');
  doc.setTextColor(255, 255, 255).setFont('helvetica', 'bold').setFontSize(13);
  doc.text(`TOTALE GENERALE${incomplete ? ' (INCOMPLETO)' : ''}`, PAGE_MARGIN + 4, cursor.y + 8);
  doc.text(formatEuros(report.totals.totalCents), right, cursor.y + 8, { align: 'right' });
  doc.setFont('helvetica', 'normal').setFontSize(9);
  doc.text(
    `Online ${formatEuros(report.totals.onlineCents)} · Totem ${formatEuros(report.totals.totemCents)}`,
    right,
    cursor.y + 14,
    { align: 'right' },
  );
  doc
    .setFont('helvetica', 'italic')
    .setFontSize(8)
    .setTextColor(...MUTED);
  doc.text(ONLINE_TAKINGS_NOTE, PAGE_MARGIN, cursor.y + 26);
  doc.setTextColor(...INK);
  cursor.y += 30;
}

/**
 * The monthly takings report: title, a warning box when kiosks could not be read (the totals are
 * then marked incomplete wherever they appear), summary (days with takings, total, online, on
 * site, test bookings kept out), each
 * location's days with alternating shading and its total, the grand total, and "Pagina n di N" with
 * the company's legal name in every footer. Save it with `doc.save(takingsReportFileName(month))`
 * in the browser or `pdfBytes(doc)` anywhere.
 */
export function buildTakingsReportPdf(report: MonthlyTakingsReport, options: TakingsReportPdfOptions): jsPDF {
  if (options.month !== undefined && options.month !== report.month) {
    throw new RangeError(`Report for ${report.month}, asked to export ${options.month}`);
  }
  const title = takingsReportTitle(report.month);
  const doc = newReportDocument(title, options);
  const cursor = new PageCursor(doc);
  const scope = report.locations.length === 1 ? report.locations[0].name : 'Tutte le location';
  const generated = options.generatedAt
    ? ` · Generato il ${DateTime.fromJSDate(options.generatedAt, { zone: 'Europe/Rome' }).toFormat('dd/MM/yyyy HH:mm')}`
    : '';
  drawTitle(cursor, title, `${scope}${generated}`);
  drawTotemMissing(cursor, report);
  drawSummary(cursor, report);
  for (const location of report.locations) drawLocation(cursor, location, options.order ?? 'date-asc');
  drawGrandTotal(cursor, report);
  drawFooters(doc, options.companyName);
  return doc;
}
