// Long observations folded where they repeat: a crawl that found the same defect on 29 options says it in 29 lines
// that differ in one word. The terminal shows the first of such a run whole and then only what the others change; the
// file reports keep every line.

/** Alike lines in a row before they are folded: two read as fast as their summary. */
const MIN_RUN = 3;
/** Values of the folded lines named before the rest are counted. */
const VALUES_SHOWN = 6;
/** Lines are alike only when what differs is at most this share of the line: else they say different things. */
const MAX_VARYING_SHARE = 1 / 3;

/** Words (letters, digits, _) and every other character on its own, so a URL or a list differs in single tokens. */
function tokensOf(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+|[^\p{L}\p{N}_]/gu) ?? [];
}

/** The token positions at which `b` differs from `a`, or undefined when the lines are not alike. */
function varyingPositions(a: string[], b: string[]): number[] | undefined {
  if (a.length !== b.length || a.length === 0) return undefined;
  const positions = a.flatMap((token, i) => (token === b[i] ? [] : [i]));
  const varying = positions.reduce((sum, i) => sum + Math.max(a[i]!.length, b[i]!.length), 0);
  const length = Math.max(a.join('').length, b.join('').length);
  return varying <= length * MAX_VARYING_SHARE ? positions : undefined;
}

/** Positions in order, grouped where they touch: `symbol=AAPL` and `page=1` read as one value each. */
function segments(positions: ReadonlySet<number>): number[][] {
  const segments: number[][] = [];
  for (const p of [...positions].sort((x, y) => x - y)) {
    const last = segments.at(-1);
    if (last !== undefined && last.at(-1) === p - 1) last.push(p);
    else segments.push([p]);
  }
  return segments;
}

/** What a line of the run says where the run's lines differ: its segments, each value once. */
function valueOf(tokens: string[], segments: number[][]): string {
  const values = segments.map((segment) => segment.map((p) => tokens[p]).join(''));
  return [...new Set(values)].join(' … ');
}

/** What stands for the rest of a run after its first entry, at the first entry's indentation. */
function foldedLine(first: string, values: string[]): string {
  const indent = /^\s*/.exec(first)![0];
  const more = values.length;
  if (values.every((v) => v === '')) return `${indent}… the same ${more} more time${more === 1 ? '' : 's'}`;
  const shown = values.slice(0, VALUES_SHOWN).join(', ');
  const unshown = more > VALUES_SHOWN ? `, and ${more - VALUES_SHOWN} more` : '';
  return `${indent}… ${more} more like it, differing only in: ${shown}${unshown}`;
}

/** Separates the items of a list a check wrote on one line (`option 1: …; option 2: …`). */
const ITEM_SEPARATOR = '; ';

/**
 * The lines with each run of at least MIN_RUN alike consecutive lines (same tokens but for a few words) folded into
 * its first line and one shorter line naming what the others change; the same within a line, for the items of a list
 * it holds. What is not part of such a run is kept as it is.
 */
export function foldRepeats(lines: readonly string[]): string[] {
  return foldRuns(lines.map((l) => foldRuns(l.split(ITEM_SEPARATOR)).join(ITEM_SEPARATOR)));
}

function foldRuns(lines: readonly string[]): string[] {
  const tokens = lines.map(tokensOf);
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const varying = new Set<number>();
    let end = i + 1;
    for (; end < lines.length; end++) {
      const positions = varyingPositions(tokens[i]!, tokens[end]!);
      if (positions === undefined) break;
      // Alike to the first line each, the run's lines must also be alike to each other: their differences add up.
      const union = new Set([...varying, ...positions]);
      const share = [...union].reduce((sum, p) => sum + tokens[i]![p]!.length, 0);
      if (share > lines[i]!.length * MAX_VARYING_SHARE) break;
      for (const p of positions) varying.add(p);
    }
    const folded =
      end - i >= MIN_RUN
        ? foldedLine(
            lines[i]!,
            tokens.slice(i + 1, end).map((t) => valueOf(t, segments(varying))),
          )
        : undefined;
    // A fold that says no less in no fewer characters than the lines it stands for is not made.
    if (folded === undefined || folded.length >= lines.slice(i + 1, end).join('').length) {
      out.push(lines[i]!);
      i += 1;
      continue;
    }
    out.push(lines[i]!, folded);
    i = end;
  }
  return out;
}
