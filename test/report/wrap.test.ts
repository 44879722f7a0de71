import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { displayWidth, fitText, wrapCommand, wrapText } from '../../src/report/wrap.js';

const RED = '\u001b[31m';
const PLAIN = '\u001b[39m';

describe('displayWidth', () => {
  it('counts columns: styles take none, East Asian wide characters two, combining marks none', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth(`${RED}✗${PLAIN} id`)).toBe(4);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('Zoe\u0308')).toBe(3);
  });
});

describe('wrapText', () => {
  it('leaves a line that fits as it is', () => {
    expect(wrapText('    spec      short', 20, 14)).toEqual(['    spec      short']);
  });

  it('breaks at spaces, drops the space at each break, and indents every row after the first under its column', () => {
    expect(wrapText('    observed  the answer has no meta block at all', 30, 14)).toEqual([
      '    observed  the answer has',
      '              no meta block at',
      '              all',
    ]);
  });

  it('keeps runs of spaces inside a row (aligned columns) and never ends a row with one', () => {
    const rows = wrapText('  ✓ id    MUST    alpha beta gamma delta epsilon', 40, 18);
    expect(rows).toEqual(['  ✓ id    MUST    alpha beta gamma delta', '                  epsilon']);
    for (const row of rows) expect(row).not.toMatch(/ $/);
  });

  it("cuts a word only when it is wider than a row: after a , ; & ? or / in the row's second half, else where it ends", () => {
    expect(wrapText('    body      {"data":[1,2,3,4,5,6,7,8,9]}', 30, 14)).toEqual([
      '    body      {"data":[1,2,3,',
      '              4,5,6,7,8,9]}',
    ]);
    expect(
      wrapText('    request   GET http://127.0.0.1:39045/v1/transactions?customerId=1004&limit=50&sort=ASC', 50, 14),
    ).toEqual([
      '    request   GET http://127.0.0.1:39045/v1/',
      '              transactions?customerId=1004&',
      '              limit=50&sort=ASC',
    ]);
    // No separator: cut where the row ends. Two columns left on the row: the long word starts on the next one.
    expect(wrapText(`12345678 ${'x'.repeat(25)}`, 12, 2)).toEqual([
      '12345678',
      '  xxxxxxxxxx',
      '  xxxxxxxxxx',
      '  xxxxx',
    ]);
    // A word that fits on a row of its own is moved there whole.
    expect(wrapText('aaaa bbbbbbbbbb', 12, 0)).toEqual(['aaaa', 'bbbbbbbbbb']);
  });

  it('measures styled text by what shows, and keeps every style sequence', () => {
    const line = `  ${RED}✗${PLAIN} check  ${RED}failed badly here${PLAIN}`;
    const rows = wrapText(line, 16, 4);
    expect(rows.map((r) => r.replace(/\u001b\[\d+m/g, ''))).toEqual(['  ✗ check', '    failed badly', '    here']);
    expect(rows.join('').match(/\u001b\[\d+m/g)).toEqual([RED, PLAIN, RED, PLAIN]);
  });

  it('counts wide characters as two columns', () => {
    expect(wrapText('日本語 日本語', 8, 0)).toEqual(['日本語', '日本語']);
  });

  it('expands tabs to the next stop of 8, so widths add up', () => {
    expect(wrapText('a\tb c', 80, 0)).toEqual(['a       b c']);
    expect(wrapText('a\tb c', 10, 2)).toEqual(['a       b', '  c']);
  });

  it('moves a column too deep for the width left, so continuation rows keep 20 columns', () => {
    const rows = wrapText(`${' '.repeat(30)}one two three four five six seven`, 40, 30);
    expect(rows[1]).toBe(`${' '.repeat(20)}three four five six`);
  });
});

describe('wrapCommand', () => {
  const command =
    "npx conformance curl '/accounts?customerId=1042' -H 'x-note: it'\\''s \"quoted\"' --created=-180 --target staging";

  it('ends each row but the last in a backslash, breaking only between words, an option kept with its value', () => {
    expect(wrapCommand(`    replay    ${command}`, 64, 14)).toEqual([
      "    replay    npx conformance curl '/accounts?customerId=1042' \\",
      `              -H 'x-note: it'\\''s "quoted"' --created=-180 \\`,
      '              --target staging',
    ]);
    expect(wrapCommand(command, 200, 0)).toEqual([command]);
  });

  it('never cuts a quoted word, even one wider than a row', () => {
    const body = `-d '{"name":"${'a'.repeat(60)}"}'`;
    const rows = wrapCommand(`npx conformance curl /customers ${body} --no-sign`, 40, 2);
    expect(rows).toEqual(['npx conformance curl /customers \\', `  ${body} \\`, '  --no-sign']);
  });

  it("puts a trailing comment on rows of its own, each starting with '#', so that none of it runs", () => {
    const rows = wrapCommand(
      'npx conformance curl /x -d \'{"a":1}\' --target t  # the report kept only the start of this 3.0 KiB body: the line sends that start only',
      44,
      2,
    );
    expect(rows).toEqual([
      'npx conformance curl /x -d \'{"a":1}\' \\',
      '  --target t',
      '  # the report kept only the start of this',
      '  # 3.0 KiB body: the line sends that start',
      '  # only',
    ]);
    expect(wrapCommand('cmd /x  # short', 80, 2)).toEqual(['cmd /x  # short']);
  });

  it('pastes into a shell as the very words of the line it was cut from', () => {
    const line =
      "printf '<%s>\\n' /accounts -H 'x-note: it'\\''s \"quoted\"' $'tab\\there' -d '{\"a\": \"b c\"}' --created=-180 --target staging  # note: ignored";
    const words = (script: string) => spawnSync('bash', ['-c', script], { encoding: 'utf8' }).stdout;
    const rows = wrapCommand(line, 30, 4);
    expect(rows.length).toBeGreaterThan(3);
    expect(words(rows.join('\n'))).toBe(words(line));
    expect(words(line)).toContain('<x-note: it\'s "quoted">');
  });
});

describe('fitText', () => {
  it('cuts to the width with an ellipsis, and leaves a line that fits alone', () => {
    expect(fitText('abcdef', 6)).toBe('abcdef');
    expect(fitText('abcdefgh', 6)).toBe('abcde…');
    expect(fitText('日本語です', 6)).toBe('日本…');
  });

  it('keeps the style sequences after the cut, so a colour opened before it is closed', () => {
    expect(fitText(`${RED}abcdefgh${PLAIN} more`, 6)).toBe(`${RED}abcde…${PLAIN}`);
  });
});
