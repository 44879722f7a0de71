// Lines laid out for a terminal of a given width: prose wrapped at spaces with continuation rows indented under their
// column, a shell command wrapped so that it still pastes as one command, and a one-line entry cut to fit. Pure: the
// terminal report decides when to use it (only on a terminal, whose width it knows).

import stringWidth from 'string-width';

// Our own styling (chalk's SGR sequences): zero columns wide. Text a server controls never holds a raw ESC here, since
// the reports show it through visible() first.
const SGR = /\u001b\[[0-9;]*m/y;
/** A continuation row keeps this many columns for its text, however deep its column lies. */
const MIN_ROOM = 20;
/** A word wider than any row starts on the current row only when this much of it fits there. */
const START_ROOM = 10;
const TAB_STOP = 8;
const ELLIPSIS = '…';
/** Where a word too wide for any row may be cut, after the character: what separates the items of a value. */
const BREAK_AFTER = new Set([',', ';', '&', '?', '/']);

interface Unit {
  text: string;
  width: number;
}

/** The text as what a terminal draws: style sequences (no width) and characters (with theirs). */
function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  let i = 0;
  while (i < text.length) {
    SGR.lastIndex = i;
    const style = SGR.exec(text);
    if (style) {
      units.push({ text: style[0], width: 0 });
      i += style[0].length;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    // string-width knows the columns a terminal draws a character in (0 for combining marks, 2 for wide characters and
    // emoji), kept current with Unicode.
    units.push({ text: ch, width: stringWidth(ch) });
    i += ch.length;
  }
  return units;
}

/** Columns the text takes in a terminal. */
export function displayWidth(text: string): number {
  return unitsOf(text).reduce((sum, u) => sum + u.width, 0);
}

/** Tabs as the spaces a terminal would move by, so that widths add up. */
function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  let column = 0;
  let out = '';
  for (const unit of unitsOf(text)) {
    if (unit.text === '\t') {
      const spaces = TAB_STOP - (column % TAB_STOP);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += unit.text;
      column += unit.width;
    }
  }
  return out;
}

/**
 * The column continuation rows start at: `hang`, moved left when it would leave them less than 20 columns (half the
 * width, in a terminal narrower than 40).
 */
function hangFor(width: number, hang: number): number {
  return Math.max(0, Math.min(hang, width - Math.min(MIN_ROOM, Math.floor(width / 2))));
}

/** Words and the runs of spaces between them (the first entry may be the line's own indentation). */
function wordsOf(text: string): Array<{ space: string; word: string }> {
  const out: Array<{ space: string; word: string }> = [];
  const re = /( *)([^ ]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out.push({ space: m[1]!, word: m[2]! });
  return out;
}

/**
 * Where a word wider than the row's `room` is cut: after the last `,` `;` `&` `?` or `/` in the row's second half when there
 * is one (a JSON body, a URL or a Signature-Input then reads in pieces), else where the room ends.
 */
function rowEnd(units: Unit[], start: number, room: number): number {
  let end = start;
  let taken = 0;
  while (end < units.length && taken + units[end]!.width <= room) taken += units[end++]!.width;
  if (end >= units.length) return end;
  for (let j = end - 1; j > start && taken >= room / 2; j--) {
    if (BREAK_AFTER.has(units[j]!.text)) return j + 1;
    taken -= units[j]!.width;
  }
  return end;
}

/**
 * Rows of at most `width` columns: breaks at spaces (dropping the space at the break), every row after the first
 * indented by `hang` spaces, the column its text starts at. Only a word wider than a row is cut (see rowEnd); a line
 * that fits is returned as it is.
 */
export function wrapText(line: string, width: number, hang: number): string[] {
  const text = expandTabs(line);
  if (displayWidth(text) <= width) return [text];
  const indent = ' '.repeat(hangFor(width, hang));
  const rows: string[] = [];
  let row = '';
  let used = 0;
  let hasWord = false;
  const newRow = () => {
    rows.push(row);
    row = indent;
    used = indent.length;
    hasWord = false;
  };
  for (const { space, word } of wordsOf(text)) {
    const w = displayWidth(word);
    if (hasWord && used + space.length + w > width) {
      if (w <= width - indent.length) {
        newRow();
        row += word;
        used += w;
        hasWord = true;
        continue;
      }
      // Wider than any row: it starts here, so no row is left short for it.
      if (width - used - space.length < START_ROOM) newRow();
      else {
        row += space;
        used += space.length;
      }
    } else {
      row += space;
      used += space.length;
    }
    const units = unitsOf(word);
    let at = 0;
    while (at < units.length) {
      let end = rowEnd(units, at, width - used);
      if (end === at) {
        if (used > indent.length) {
          newRow();
          continue;
        }
        end = at + 1;
      }
      for (const unit of units.slice(at, end)) {
        row += unit.text;
        used += unit.width;
      }
      at = end;
      if (at < units.length) newRow();
    }
    hasWord = true;
  }
  rows.push(row);
  return rows;
}

/** A shell command's words (quotes kept whole, spaces inside them no break) and the `# comment` after it, if any. */
function shellWordsOf(text: string): {
  words: Array<{ space: string; word: string }>;
  comment?: { space: string; text: string };
} {
  const words: Array<{ space: string; word: string }> = [];
  let space = '';
  let word = '';
  let quote: "'" | '"' | "$'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === undefined) {
      if (ch === ' ') {
        if (word !== '') {
          words.push({ space, word });
          space = '';
          word = '';
        }
        space += ch;
        continue;
      }
      if (ch === '#' && word === '' && words.length > 0) return { words, comment: { space, text: text.slice(i) } };
      if (ch === "'") quote = "'";
      else if (ch === '"') quote = '"';
      else if (ch === '$' && text[i + 1] === "'") {
        quote = "$'";
        word += ch;
        i += 1;
        word += text[i];
        continue;
      } else if (ch === '\\' && i + 1 < text.length) {
        word += ch + text[i + 1];
        i += 1;
        continue;
      }
    } else if (quote !== "'" && ch === '\\' && i + 1 < text.length) {
      word += ch + text[i + 1];
      i += 1;
      continue;
    } else if ((quote === '"' && ch === '"') || (quote !== '"' && ch === "'")) quote = undefined;
    word += ch;
  }
  if (word !== '') words.push({ space, word });
  return { words };
}

/** An option and its value (`-H 'Accept: x'`, `--target staging`) as one word, so that no row ends between them. */
function withOptionValues(words: Array<{ space: string; word: string }>): Array<{ space: string; word: string }> {
  const out: Array<{ space: string; word: string }> = [];
  for (let i = 0; i < words.length; i++) {
    const { space, word } = words[i]!;
    const next = words[i + 1];
    if (/^-[^=]*$/.test(word) && next !== undefined && !next.word.startsWith('-')) {
      out.push({ space, word: `${word}${next.space}${next.word}` });
      i += 1;
    } else out.push({ space, word });
  }
  return out;
}

/**
 * A shell command laid out in rows of `width` columns that still paste as one command: breaks only between words, never
 * between an option and its value (a quoted word is never cut, even when wider than a row), each row but the last
 * ending in ` \`, rows after the first indented by `hang`. A trailing `# comment` goes on rows of its own, each starting with `#`, so no part of it is
 * ever run.
 */
export function wrapCommand(line: string, width: number, hang: number): string[] {
  if (displayWidth(line) <= width) return [line];
  const { words: shellWords, comment } = shellWordsOf(line);
  const words = withOptionValues(shellWords);
  const indent = ' '.repeat(hangFor(width, hang));
  const rows: string[] = [];
  let row = '';
  let used = 0;
  words.forEach(({ space, word }, i) => {
    const w = displayWidth(word);
    const last = i === words.length - 1;
    // Room for the ` \` a row ends with when another follows.
    const reserve = last ? 0 : 2;
    if (i > 0 && used + space.length + w + reserve > width && used > indent.length) {
      rows.push(`${row} \\`);
      row = indent + word;
      used = indent.length + w;
    } else {
      row += space + word;
      used += space.length + w;
    }
  });
  if (comment === undefined) return [...rows, row];
  if (used + comment.space.length + displayWidth(comment.text) <= width)
    return [...rows, `${row}${comment.space}${comment.text}`];
  rows.push(row);
  const text = comment.text.replace(/^#\s*/, '');
  const commentRows = wrapText(`${indent}# ${text}`, width, indent.length + 2);
  return [...rows, ...commentRows.map((r, i) => (i === 0 ? r : `${indent}#${r.slice(indent.length + 1)}`))];
}

/**
 * The line cut to `width` columns, ending in `…` when cut. Style sequences after the cut are kept (they take no
 * room), so a colour opened before it is closed.
 */
export function fitText(line: string, width: number): string {
  if (displayWidth(line) <= width) return line;
  let out = '';
  let used = 0;
  let cut = false;
  for (const unit of unitsOf(line)) {
    if (unit.text.startsWith('\u001b')) out += unit.text;
    else if (cut) continue;
    else if (used + unit.width > width - 1) {
      out += ELLIPSIS;
      cut = true;
    } else {
      out += unit.text;
      used += unit.width;
    }
  }
  return out;
}
