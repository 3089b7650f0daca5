import { describe, expect, it } from 'vitest';
import type { TotemProceed } from '@deposito/protocol';
import { parseProceedsXml, promotecProceedsUrl, renderProceedsXml } from './promotec-wire';

const payment: TotemProceed = {
  type: 'supplement',
  date: '2026-07-14T10:32:05+02:00',
  amountCents: 1250,
  lockerId: 4,
  billNo: 'R&D-0001',
  discountCents: 150,
};

function document(paymentXml: string, month = '2026-07'): string {
  return `<?xml version="1.0" encoding="UTF-8"?><proceeds month="${month}">${paymentXml}</proceeds>`;
}

describe('Promotec wire format', () => {
  it('reads back what it writes, receipt numbers with entities included', () => {
    const xml = renderProceedsXml('2026-07', [payment, { ...payment, type: 'initial', billNo: 'R-2' }]);
    expect(xml).toContain('<amount>12.50</amount>');
    expect(xml).toContain('<billNo>R&amp;D-0001</billNo>');
    expect(parseProceedsXml(xml, '2026-07')).toEqual({
      ok: true,
      proceeds: [payment, { ...payment, type: 'initial', billNo: 'R-2' }],
    });
  });

  it('reads an empty month in both spellings', () => {
    expect(parseProceedsXml(renderProceedsXml('2026-07', []), '2026-07')).toEqual({ ok: true, proceeds: [] });
    expect(parseProceedsXml('<proceeds month="2026-07"></proceeds>', '2026-07')).toEqual({
      ok: true,
      proceeds: [],
    });
  });

  it('reads euros exactly into cents and defaults a missing discount to 0', () => {
    const read = (amount: string) =>
      parseProceedsXml(
        document(
          `<payment type="initial"><date>2026-07-01T10:00:00Z</date><amount>${amount}</amount><locker>1</locker><billNo>B1</billNo></payment>`,
        ),
        '2026-07',
      );
    expect(read('12.5')).toMatchObject({ ok: true, proceeds: [{ amountCents: 1250, discountCents: 0 }] });
    expect(read('12')).toMatchObject({ ok: true, proceeds: [{ amountCents: 1200 }] });
    expect(read('0.29')).toMatchObject({ ok: true, proceeds: [{ amountCents: 29 }] });
    for (const bad of ['12.505', '-1.00', '1,50', '', 'dodici']) expect(read(bad).ok).toBe(false);
  });

  it('rejects answers for another month, unknown payment types, bad dates and DTDs', () => {
    const good = renderProceedsXml('2026-07', [payment]);
    expect(parseProceedsXml(good, '2026-08')).toEqual({
      ok: false,
      message: 'risposta per il mese 2026-07, richiesto 2026-08',
    });
    expect(parseProceedsXml(good.replace('supplement', 'refund'), '2026-07').ok).toBe(false);
    expect(parseProceedsXml(good.replace('+02:00', ''), '2026-07').ok).toBe(false);
    expect(parseProceedsXml(good.replace('<locker>4</locker>', '<locker>0</locker>'), '2026-07').ok).toBe(
      false,
    );
    const bomb = `<?xml version="1.0"?><!DOCTYPE proceeds [<!ENTITY a "aaaaaaaa">]><proceeds month="2026-07">&a;</proceeds>`;
    expect(parseProceedsXml(bomb, '2026-07')).toEqual({
      ok: false,
      message: 'dichiarazioni DTD non ammesse',
    });
    expect(parseProceedsXml('<proceeds month="2026-07"><payment>', '2026-07')).toMatchObject({ ok: false });
    expect(parseProceedsXml('<other/>', '2026-07')).toMatchObject({ ok: false });
  });

  it('builds the proceeds URL, IPv6 hosts bracketed', () => {
    expect(promotecProceedsUrl('10.0.0.5', 11000, '2026-07')).toBe(
      'http://10.0.0.5:11000/proceeds?month=2026-07',
    );
    expect(promotecProceedsUrl('::1', 11000, '2026-07')).toBe('http://[::1]:11000/proceeds?month=2026-07');
  });
});
