/*
 * The Promotec wire format: how a location's kiosk-payment system ("Promotec", the totem) reports
 * the money it took. The cloud calls it directly at the location's `recipient` and `port`, the same
 * address the locker controller answers on (its operations are POSTs to other paths).
 *
 *   GET http://{recipient}:{port}/proceeds?month=yyyy-MM      (https:// with PROMOTEC_SCHEME=https)
 *   Accept: application/xml
 *
 *   200 OK
 *   Content-Type: application/xml; charset=utf-8
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <proceeds month="2026-07">
 *     <payment type="initial">                       initial = rental paid at the kiosk,
 *       <date>2026-07-14T10:32:05+02:00</date>       supplement = overstay paid on a locker in use
 *       <amount>12.50</amount>
 *       <locker>4</locker>
 *       <billNo>ROMA-202607-0001</billNo>
 *       <discount>0.00</discount>
 *     </payment>
 *     …
 *   </proceeds>
 *
 * - `month` on the root echoes the month asked for; an answer for another month is rejected.
 * - `date` is ISO 8601 with the kiosk's UTC offset (or Z); the cloud puts it on a day in the
 *   location's zone.
 * - `amount` is what was taken, VAT included, in euros with a dot and at most two decimals;
 *   `discount` (optional, default 0) is what was already deducted from it, same format.
 * - `locker` is the locker number, `billNo` the kiosk's receipt number (text, 1–40 characters).
 * - A month without payments is `<proceeds month="2026-07"/>`. Payments are in any order.
 * - No DTD, no entities: a document declaring either is rejected, and nothing is expanded.
 * - Any status but 200 is a failure; the answer is at most `PROMOTEC_MAX_RESPONSE_BYTES` by default,
 *   and large answers are read in a worker thread (./proceeds-parser) so a hostile one cannot stall
 *   the cloud.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { totemProceedSchema, takingsMonthSchema, zIsoDateTime, type TotemProceed } from '@deposito/protocol';

export const PROMOTEC_PROCEEDS_PATH = '/proceeds';
export const PROMOTEC_TIMEOUT_MS = 10_000;
/** A busy kiosk takes a few thousand payments a month, about 250 bytes each. */
export const PROMOTEC_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** More payments than any kiosk takes in a month means a broken answer, not takings. */
export const PROMOTEC_MAX_PAYMENTS = 20_000;

export type PromotecScheme = 'http' | 'https';

export function promotecProceedsUrl(
  recipient: string,
  port: number,
  month: string,
  scheme: PromotecScheme = 'http',
): string {
  const host = recipient.includes(':') && !recipient.startsWith('[') ? `[${recipient}]` : recipient;
  return `${scheme}://${host}:${port}${PROMOTEC_PROCEEDS_PATH}?month=${encodeURIComponent(month)}`;
}

const wireEuros = z
  .string()
  .regex(/^\d{1,7}(?:\.\d{1,2})?$/, 'atteso un importo in euro come 12.50')
  .transform((text) => {
    const [euros, decimals = ''] = text.split('.');
    return Number(euros) * 100 + Number(decimals.padEnd(2, '0'));
  });

const wirePaymentSchema = z.object({
  '@_type': z.enum(['initial', 'supplement']),
  date: zIsoDateTime,
  amount: wireEuros,
  locker: z.string().regex(/^\d{1,4}$/, 'atteso un numero di locker'),
  billNo: z.string(),
  discount: wireEuros.default(0),
});

const wireDocumentSchema = z.object({
  proceeds: z.object({
    '@_month': takingsMonthSchema,
    payment: z.array(wirePaymentSchema).max(PROMOTEC_MAX_PAYMENTS).default([]),
  }),
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  // Entities are never expanded: no entity-expansion attacks, and text is taken as written.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, jpath) => jpath === 'proceeds.payment',
});

// With entity processing off the parser leaves `&amp;` as written; only the five predefined XML
// entities are meaningful in a receipt number, so they alone are decoded, `&amp;` last.
function decodePredefinedEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

export type ProceedsParseResult = { ok: true; proceeds: TotemProceed[] } | { ok: false; message: string };

/** Reads a Promotec answer for `month`; never throws. */
export function parseProceedsXml(text: string, month: string): ProceedsParseResult {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, message: 'dichiarazioni DTD non ammesse' };
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    return { ok: false, message: `XML non valido: ${valid.err.msg} (riga ${valid.err.line})` };
  const document = wireDocumentSchema.safeParse(parser.parse(text));
  if (!document.success) {
    const issue = document.error.issues[0];
    return {
      ok: false,
      message: `documento non valido: ${issue.path.join('.') || 'radice'}: ${issue.message}`,
    };
  }
  if (document.data.proceeds['@_month'] !== month) {
    return {
      ok: false,
      message: `risposta per il mese ${document.data.proceeds['@_month']}, richiesto ${month}`,
    };
  }
  const proceeds: TotemProceed[] = [];
  for (const [index, payment] of document.data.proceeds.payment.entries()) {
    const proceed = totemProceedSchema.safeParse({
      type: payment['@_type'],
      date: payment.date,
      amountCents: payment.amount,
      lockerId: Number(payment.locker),
      billNo: decodePredefinedEntities(payment.billNo),
      discountCents: payment.discount,
    });
    if (!proceed.success) {
      const issue = proceed.error.issues[0];
      return {
        ok: false,
        message: `pagamento ${index + 1} non valido: ${issue.path.join('.')}: ${issue.message}`,
      };
    }
    proceeds.push(proceed.data);
  }
  return { ok: true, proceeds };
}

function euros(cents: number): string {
  return `${Math.floor(cents / 100)}.${(cents % 100).toString().padStart(2, '0')}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Writes a Promotec answer; the simulator's side of the format. */
export function renderProceedsXml(month: string, proceeds: readonly TotemProceed[]): string {
  const payments = proceeds.map(
    (proceed) =>
      `  <payment type="${proceed.type}">\n` +
      `    <date>${escapeXml(proceed.date)}</date>\n` +
      `    <amount>${euros(proceed.amountCents)}</amount>\n` +
      `    <locker>${proceed.lockerId}</locker>\n` +
      `    <billNo>${escapeXml(proceed.billNo)}</billNo>\n` +
      `    <discount>${euros(proceed.discountCents)}</discount>\n` +
      `  </payment>\n`,
  );
  const root = `proceeds month="${escapeXml(month)}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${payments.length ? `<${root}>\n${payments.join('')}</proceeds>` : `<${root}/>`}\n`;
}
