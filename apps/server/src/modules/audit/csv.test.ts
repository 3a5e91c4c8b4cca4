import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\r=1'])('defuses a formula-looking cell %j', (value) => {
    expect(csvCell(value).replace(/^"/, '').startsWith("'")).toBe(true);
  });

  it('keeps a defused cell quoted when it needs quoting', () => {
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
  });

  it('joins rows with CRLF and ends with one', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['1', '=2'],
      ]),
    ).toBe("a,b\r\n1,'=2\r\n");
  });

  it('writes numbers as they are: a negative figure is a number, not a defused formula', () => {
    expect(csvCell(-12)).toBe('-12');
    expect(csvCell('-12')).toBe("'-12");
    expect(
      toCsv([
        ['rank', 'mana'],
        [1, -3],
      ]),
    ).toBe('rank,mana\r\n1,-3\r\n');
  });
});
