// Issue 27's acceptance for the terminal: a clean run against the reference server, in an 80-column terminal, prints at
// most one row per check and fewer than 15 rows besides (header, blank rows and all after the last check included);
// a failing check's block keeps its content.
import { describe, expect, it } from 'vitest';
import { run } from '../../src/api.js';
import { HumanReporter } from '../../src/report/human.js';
import { reportsLine } from '../../src/cli/reports-written.js';
import { displayWidth, wrapText } from '../../src/report/wrap.js';

const COLUMNS = 80;
/** A check's row: mark, id. */
const CHECK_ROW = /^ {2}[✓✗!E-] (\S+) /;

/** A terminal of COLUMNS, as the reporter sees process.stdout. */
class Terminal {
  readonly isTTY = true;
  readonly columns = COLUMNS;
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  /** The rows it shows: a row redrawn after a carriage return as redrawn, escapes gone. */
  rows(): string[] {
    return this.text
      .split('\n')
      .map((row) =>
        row
          .split('\r')
          .at(-1)!
          .replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
      )
      .slice(0, -1);
  }
}

async function runOnTerminal(faults: string[] = []) {
  const terminal = new Terminal();
  const reporter = new HumanReporter({ out: terminal, color: true, progress: true, wrap: true });
  const result = await run({ reporters: [reporter], local: { faults } });
  return { result, rows: terminal.rows() };
}

describe('the default terminal report of a run against the reference server, 80 columns', () => {
  it('gives each check one row, and all the rest (reports line included) fewer than 15', async () => {
    const { result, rows } = await runOnTerminal();
    expect(result.totals.failed + result.totals.warned + result.totals.errored).toBe(0);
    // What the command adds after the report: the paths of the reports it wrote.
    const reports = wrapText(
      reportsLine([
        { label: 'JSON', path: 'r.json' },
        { label: 'JUnit', path: 'r.xml' },
        { label: 'HTML', path: 'r.html' },
        { label: 'HAR', path: 'r.har' },
        { label: 'evidence', path: 'dir/' },
      ])!,
      COLUMNS,
      2,
    );
    const all = [...rows, ...reports];
    for (const row of all) expect(displayWidth(row), row).toBeLessThanOrEqual(COLUMNS);
    const ids = result.checks.map((c) => c.id);
    const checkRows = all.filter((row) => CHECK_ROW.test(row));
    expect(checkRows.map((row) => CHECK_ROW.exec(row)![1])).toEqual(ids);
    const summary = all.length - checkRows.length;
    expect(summary, all.filter((row) => !checkRows.includes(row)).join('\n')).toBeLessThan(15);
    // The checks come first, the summary after the last of them.
    expect(all.indexOf(checkRows.at(-1)!)).toBe(2 + ids.length - 1);
  });

  it("shows a failing check's block whole, folding only what repeats", async () => {
    const { result, rows } = await runOnTerminal(['ussd.request-type-lowercase']);
    const failed = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn');
    expect(failed.map((c) => c.id)).toEqual(['ussd.options.get']);
    const text = rows.join('\n');
    const start = rows.findIndex((row) => row.startsWith('  ! ussd.options.get '));
    const end = rows.findIndex((row, i) => i > start && CHECK_ROW.test(row));
    // Read as written, not as wrapped.
    const block = rows
      .slice(start, end)
      .join('\n')
      .replace(/\n {14}/g, ' ');
    // Every section of the block is there: spec, observed, request, response, replay.
    for (const label of ['spec', 'observed', 'request', 'response', 'replay'])
      expect(block).toMatch(new RegExp(`^ {4}${label} `, 'm'));
    // The option after option, each requestType "get", folded into the first two and what the others change.
    expect(block).toContain('option 1 (ussdOptions[0]): requestType "get"');
    expect(block).toContain(
      'option 2 (ussdOptions[1]): requestType "get"; … 4 more like it, differing only in: 3 … 2, 4 … 3, 5 … 4, 6 … 5',
    );
    expect(block).not.toContain('option 6 (ussdOptions[5])');
    expect(text).toContain('  ! ussd.options.get');
  });
});
