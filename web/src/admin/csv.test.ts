import { describe, expect, it } from 'vitest';
import { csvEuros, toCsv } from './csv';

describe('CSV exports', () => {
  it('writes semicolon-separated lines with a BOM, quoting what needs it', () => {
    const text = toCsv(
      ['Nome', 'Nota'],
      [
        ['Giulia', 'dice "ciao"; poi va'],
        ['Luca\nRossi', null],
      ],
    );
    expect(text).toBe('\uFEFFNome;Nota\r\nGiulia;"dice ""ciao""; poi va"\r\n"Luca\nRossi";\r\n');
  });

  it('keeps a cell that starts like a formula as text (CSV injection)', () => {
    const text = toCsv(
      ['Nome'],
      [['=HYPERLINK("http://x","y")'], ['+39 333'], ['-1+A1'], ['@cmd'], ['Anna'], [csvEuros(-250)]],
    );
    expect(text.split('\r\n').slice(1, 7)).toEqual([
      `"'=HYPERLINK(""http://x"",""y"")"`,
      "'+39 333",
      "'-1+A1",
      "'@cmd",
      'Anna',
      // A negative amount stays a number.
      '-2,50',
    ]);
  });

  it('writes euros as an Italian spreadsheet reads a number', () => {
    expect([csvEuros(0), csvEuros(550), csvEuros(123456), csvEuros(-250), csvEuros(null)]).toEqual([
      '0,00',
      '5,50',
      '1234,56',
      '-2,50',
      '',
    ]);
  });
});
