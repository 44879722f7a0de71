import { describe, expect, it } from 'vitest';
import { foldRepeats } from '../../src/report/fold.js';

const SYMBOLS = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'NVDA', 'TSLA', 'META', 'NFLX', 'ORCL', 'IBM'];

/** A crawl's line per option, on the wrong origin: the same but for the symbol, twice in each line. */
function optionLine(symbol: string): string {
  return `- "http://10.0.0.12:8080/v1/ussd/stocks?customerId=1042&symbol=${symbol}" (followed as GET http://127.0.0.1:45831/v1/ussd/stocks?customerId=1042&symbol=${symbol})`;
}

describe('foldRepeats', () => {
  it('folds a run of lines that differ in one word into the first and what the others change, each value once', () => {
    const lines = ['observed on the wrong origin:', ...SYMBOLS.map(optionLine), 'the crawl followed them by path'];
    expect(foldRepeats(lines)).toEqual([
      'observed on the wrong origin:',
      optionLine('AAPL'),
      '… 9 more like it, differing only in: MSFT, GOOGL, AMZN, NVDA, TSLA, META, and 3 more',
      'the crawl followed them by path',
    ]);
  });

  it("keeps the first line's indentation on the folded line", () => {
    const lines = SYMBOLS.slice(0, 4).map((s) => `  ${optionLine(s)}`);
    expect(foldRepeats(lines)).toEqual([lines[0], '  … 3 more like it, differing only in: MSFT, GOOGL, AMZN']);
  });

  it('folds three alike lines, not two: they read as fast as a summary', () => {
    expect(foldRepeats(SYMBOLS.slice(0, 3).map(optionLine))).toEqual([
      optionLine('AAPL'),
      '… 2 more like it, differing only in: MSFT, GOOGL',
    ]);
    const two = SYMBOLS.slice(0, 2).map(optionLine);
    expect(foldRepeats(two)).toEqual(two);
  });

  it('makes no fold longer than the lines it would stand for', () => {
    const lines = ['GET /a: 200', 'GET /b: 200', 'GET /c: 200', 'GET /d: 200'];
    expect(foldRepeats(lines)).toEqual(lines);
    expect(foldRepeats(['ok', 'ok', 'ok', 'ok'])).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('folds the same line said again and again', () => {
    expect(foldRepeats(['a', 'no answer from 10.0.0.1', ...Array(4).fill('no answer from 10.0.0.1'), 'b'])).toEqual([
      'a',
      'no answer from 10.0.0.1',
      '… the same 4 more times',
      'b',
    ]);
  });

  it('leaves lines that share a shape but say different things (more than a third differs)', () => {
    const lines = [
      'stocks page=-1: 400 Bad Request',
      'assets page=x: 404 Not Found',
      'requests page=1.5: 200 OK',
      'home detail=maybe: 500 Internal Server Error',
    ];
    expect(foldRepeats(lines)).toEqual(lines);
  });

  it('stops a run where its differences add up to more than a third of the line', () => {
    const lines = [
      'aa bb cc dd ee ff',
      'XX bb cc dd ee ff',
      'aa XX cc dd ee ff',
      'aa bb XX dd ee ff',
      'aa bb cc XX ee ff',
    ];
    // Each is alike the first (2 of 17 characters differ), but three of them together differ in 6 of 17.
    expect(foldRepeats(lines)).toEqual(lines);
  });

  it('folds the items of a list on one line as it folds lines', () => {
    const items = [1, 2, 3, 4, 5, 6].map((n) => `option ${n} (ussdOptions[${n - 1}]): requestType "get"`);
    const line = `stocks (menu "Stocks (1-3 of 5)"): ${items.join('; ')}`;
    expect(foldRepeats([line])).toEqual([
      `stocks (menu "Stocks (1-3 of 5)"): ${items[0]}; ${items[1]}; … 4 more like it, differing only in: 3 … 2, 4 … 3, 5 … 4, 6 … 5`,
    ]);
  });

  it('gives back an empty list and lines without repeats unchanged', () => {
    expect(foldRepeats([])).toEqual([]);
    const lines = ['spec REQ-1', 'expected 200', 'observed 404'];
    expect(foldRepeats(lines)).toEqual(lines);
  });
});
