// Page geometry and the few drawing steps every PDF of ours shares (the takings reports drawn in the
// admin pages, the visitor's receipt drawn by the cloud). A4 portrait in millimetres; everything
// here runs in the browser and in Node (no DOM).
import { jsPDF } from 'jspdf';

export const PAGE_MARGIN = 20;
/** Content never goes below this line; what would cross it starts a new page (spec §9: ~250 of 270). */
export const CONTENT_BOTTOM = 250;
/** Baseline of the footer: company line and "Pagina n di N". */
export const FOOTER_BASELINE = 270;

export type Rgb = [number, number, number];
export const INK: Rgb = [33, 37, 41];
export const MUTED: Rgb = [108, 117, 125];
export const HEADER_FILL: Rgb = [44, 62, 80];
export const STRIPE_FILL: Rgb = [242, 244, 247];
export const BAND_FILL: Rgb = [225, 232, 240];
export const TOTAL_GREEN: Rgb = [30, 132, 73];
export const ERROR_RED: Rgb = [192, 57, 43];

export interface PdfDocumentOptions {
  /** Deflate the content streams (default). Tests turn it off to read the text back. */
  compress?: boolean;
}

export function newReportDocument(title: string, options: PdfDocumentOptions = {}): jsPDF {
  const doc = new jsPDF({
    orientation: 'portrait',
    unit: 'mm',
    format: 'a4',
    compress: options.compress ?? true,
  });
  doc.setProperties({ title, creator: 'Deposito' });
  doc.setFont('helvetica', 'normal');
  doc.setTextColor(...INK);
  return doc;
}

export function contentWidth(doc: jsPDF): number {
  return doc.internal.pageSize.getWidth() - 2 * PAGE_MARGIN;
}

/** Where the next block goes; starts a page when a block would cross CONTENT_BOTTOM. */
export class PageCursor {
  y = PAGE_MARGIN;

  constructor(readonly doc: jsPDF) {}

  /** Makes room for a block of `height` mm, on a new page if needed. */
  ensureSpace(height: number): void {
    if (this.y + height > CONTENT_BOTTOM) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = PAGE_MARGIN;
  }

  /** Moves below the table jspdf-autotable has just drawn. */
  afterTable(gap: number): void {
    const finalY = (this.doc as unknown as { lastAutoTable?: { finalY?: number } }).lastAutoTable?.finalY;
    this.y = (finalY ?? this.y) + gap;
  }
}

/** The bottom margin that keeps jspdf-autotable above CONTENT_BOTTOM. */
export function tableBottomMargin(doc: jsPDF): number {
  return doc.internal.pageSize.getHeight() - CONTENT_BOTTOM;
}

export function drawTitle(cursor: PageCursor, title: string, subtitle: string): void {
  const { doc } = cursor;
  doc
    .setFont('helvetica', 'bold')
    .setFontSize(18)
    .setTextColor(...INK);
  doc.text(title, PAGE_MARGIN, cursor.y + 6);
  doc
    .setFont('helvetica', 'normal')
    .setFontSize(10)
    .setTextColor(...MUTED);
  doc.text(subtitle, PAGE_MARGIN, cursor.y + 12);
  doc.setDrawColor(...HEADER_FILL).setLineWidth(0.6);
  doc.line(PAGE_MARGIN, cursor.y + 15, PAGE_MARGIN + contentWidth(doc), cursor.y + 15);
  doc.setTextColor(...INK);
  cursor.y += 23;
}

/** The company's legal name and "Pagina n di N" (or `pageLabel`'s words) on every page, once the page count is known. */
export function drawFooters(
  doc: jsPDF,
  companyName: string,
  pageLabel: (page: number, pages: number) => string = (page, pages) => `Pagina ${page} di ${pages}`,
): void {
  const pages = doc.getNumberOfPages();
  const right = PAGE_MARGIN + contentWidth(doc);
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setDrawColor(...BAND_FILL).setLineWidth(0.3);
    doc.line(PAGE_MARGIN, FOOTER_BASELINE - 5, right, FOOTER_BASELINE - 5);
    doc
      .setFont('helvetica', 'normal')
      .setFontSize(8)
      .setTextColor(...MUTED);
    if (companyName) doc.text(companyName, PAGE_MARGIN, FOOTER_BASELINE);
    doc.text(pageLabel(page, pages), right, FOOTER_BASELINE, { align: 'right' });
  }
  doc.setTextColor(...INK);
}

/** The finished document as bytes, e.g. to send or to write to a file. */
export function pdfBytes(doc: jsPDF): Uint8Array {
  return new Uint8Array(doc.output('arraybuffer'));
}
