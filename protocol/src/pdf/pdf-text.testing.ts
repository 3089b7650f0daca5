// Reads back the text of an uncompressed PDF written by jsPDF (the takings reports, the receipt), page by page, with each text's
// position, so tests can check what a report says and where. Only what jsPDF writes is handled:
// standard fonts (WinAnsi bytes), literal strings shown with Tj after a Td in a BT…ET block.

export interface PdfTextItem {
  text: string;
  /** Millimetres from the left edge. */
  x: number;
  /** Millimetres from the top edge (baseline). */
  y: number;
}

const PT_TO_MM = 25.4 / 72;

// WinAnsi (the standard fonts' encoding) is Latin-1 except for 0x80–0x9F; written out so the
// result does not depend on the TextDecoder of the environment.
const WIN_ANSI_80_9F = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeWinAnsi(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes)
    text += byte >= 0x80 && byte <= 0x9f ? WIN_ANSI_80_9F[byte - 0x80] : String.fromCharCode(byte);
  return text;
}

function readLiteralStrings(source: string): string[] {
  const strings: string[] = [];
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '(') continue;
    let depth = 1;
    let text = '';
    for (i++; i < source.length && depth > 0; i++) {
      const ch = source[i];
      if (ch === '\\') {
        const next = source[++i];
        const octal = /^[0-7]{1,3}/.exec(source.slice(i, i + 3));
        if (octal) {
          text += String.fromCharCode(parseInt(octal[0], 8));
          i += octal[0].length - 1;
        } else {
          text += { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' }[next] ?? next;
        }
      } else if (ch === '(') {
        depth++;
        text += ch;
      } else if (ch === ')') {
        depth--;
        if (depth > 0) text += ch;
      } else {
        text += ch;
      }
    }
    i--;
    strings.push(text);
  }
  return strings;
}

/** The text items of every page, in page order. `pdf` is the document's bytes (`compress: false`). */
export function readPdfText(pdf: Uint8Array | ArrayBuffer): PdfTextItem[][] {
  const raw = decodeWinAnsi(pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf));
  const objects = new Map<number, string>();
  for (const match of raw.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)) objects.set(Number(match[1]), match[2]);
  const pagesObject = [...objects.values()].find((body) => /\/Type\s*\/Pages\b/.test(body));
  if (!pagesObject) throw new Error('no /Pages object');
  const kids = [...(/\/Kids\s*\[([^\]]*)\]/.exec(pagesObject)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) =>
    Number(m[1]),
  );
  return kids.map((pageNumber) => {
    const page = objects.get(pageNumber) ?? '';
    const height = Number(
      /\/MediaBox\s*\[\s*[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)\s*\]/.exec(page)?.[1] ?? 841.89,
    );
    const contentsRef = /\/Contents\s+(\d+) 0 R/.exec(page)?.[1];
    const stream =
      /stream\r?\n([\s\S]*?)\r?\nendstream/.exec(objects.get(Number(contentsRef)) ?? '')?.[1] ?? '';
    if (/\/Filter/.test(objects.get(Number(contentsRef)) ?? '')) throw new Error('compressed content stream');
    const items: PdfTextItem[] = [];
    for (const block of stream.matchAll(/\bBT\b([\s\S]*?)\bET\b/g)) {
      const position = /(-?[\d.]+)\s+(-?[\d.]+)\s+Td/.exec(block[1]);
      const x = position ? Number(position[1]) * PT_TO_MM : 0;
      const y = position ? (height - Number(position[2])) * PT_TO_MM : 0;
      for (const text of readLiteralStrings(block[1])) items.push({ text, x, y });
    }
    return items;
  });
}

/** All the text of each page, one line per text item. */
export function pdfPageTexts(pdf: Uint8Array | ArrayBuffer): string[] {
  return readPdfText(pdf).map((items) => items.map((item) => item.text).join('\n'));
}
