// The numbered choices a ussdMessage shows. The spec fixes no numbering style ("1. Buy", "1) Buy", "1 - Buy", "0 Back"
// all occur), so any common style is read; reading too much only makes the checks more lenient, reading too little
// would fail a server for its style.

export interface NumberedChoice {
  number: number;
  label: string;
  /** 0-based line of the message it is on. */
  line: number;
}

// One choice at the start of a line: "(1) Buy", "[1] Buy", "1. Buy", "1.Buy", "1) Buy", "1: Buy", "1:Buy", "1 - Buy",
// "1 – Buy", "1 => Buy", and the bare "0 Back". A dot followed by a digit is a decimal ("1.5 units"), not a choice.
// Groups: 1 "(N)", 2 "[N]", 3 and 4 a number and the separator after it, 5 a bare number, 6 the label.
const AT_LINE_START =
  /^\s*(?:\(\s*(\d{1,6})\s*\)|\[\s*(\d{1,6})\s*\]|(\d{1,6})\s*(\.(?!\d)\)?|\)|:|[-–—=]+>?|>)|(\d{1,6})(?=\s))\s*(\S.*?)\s*$/u;

// Further choices on the same line, as menus write them to save screen lines: "1.Yes 2.No", "1) Yes  2) No", and the
// navigation line of ExUssd, "98:MORE 0:BACK" or "0:BACK 00:HOME". A number followed by ".", ")" or ":" is read in any
// line; "(2) No", "[2] No" or "2 - No" only where the line starts in that style, since a text such as "AAPL 10 - 5%"
// would otherwise be read as a choice. A letter must follow, so neither "10.50" nor "10:30" is read; a bare number
// ("Buy 2 shares") never is.
const INLINE_ANY = String.raw`(\d{1,6})(?:\.(?!\d)|\)|:)`;
const INLINE_PAREN = String.raw`\(\s*(\d{1,6})\s*\)`;
const INLINE_BRACKET = String.raw`\[\s*(\d{1,6})\s*\]`;

/** The pattern of further choices on a line whose first choice `m` (AT_LINE_START) is written as it is. */
function inlinePattern(m: RegExpExecArray): RegExp {
  const forms = [INLINE_ANY];
  if (m[1] !== undefined) forms.push(INLINE_PAREN);
  else if (m[2] !== undefined) forms.push(INLINE_BRACKET);
  else if (m[4] !== undefined && !['.', ')', ':'].includes(m[4]))
    forms.push(String.raw`(\d{1,6})\s*${m[4].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  return new RegExp(String.raw`(?<=\s)(?:${forms.join('|')})\s*(?=\p{L})`, 'gu');
}

// ExUssd's navigation written label first ("BACK:0 MORE:98", its Nav with the name before the match): a line made of
// nothing but such pairs. Two pairs at least, or one whose label is in capitals as navigation names are, so that a text
// line such as "Balance: 100" is not read as choice 100.
const LABEL_FIRST_LINE = /^\s*(?:\p{L}[\p{L}\p{N} ]*?\s*:\s*\d{1,6}\s+)*\p{L}[\p{L}\p{N} ]*?\s*:\s*\d{1,6}\s*$/u;
const LABEL_FIRST_PAIR = /(\p{L}[\p{L}\p{N} ]*?)\s*:\s*(\d{1,6})(?=\s|$)/gu;

function labelFirst(text: string, line: number): NumberedChoice[] {
  if (!LABEL_FIRST_LINE.test(text)) return [];
  const pairs = [...text.matchAll(LABEL_FIRST_PAIR)].map((m) => ({
    number: Number(m[2]),
    label: m[1]!.trim(),
    line,
  }));
  return pairs.length >= 2 || /^[\p{Lu} ]+$/u.test(pairs[0]?.label ?? '') ? pairs : [];
}

/** The numbered choices of a message, in the order they are shown. */
export function numberedChoices(message: string): NumberedChoice[] {
  const out: NumberedChoice[] = [];
  message.split(/\r\n|\r|\n/).forEach((text, line) => {
    const m = AT_LINE_START.exec(text);
    if (!m) {
      out.push(...labelFirst(text, line));
      return;
    }
    const digits = m[1] ?? m[2] ?? m[3] ?? m[5]!;
    const rest = m[6]!;
    const inline = [...` ${rest}`.matchAll(inlinePattern(m))];
    const label = (inline.length > 0 ? rest.slice(0, inline[0]!.index - 1) : rest).trim();
    out.push({ number: Number(digits), label, line });
    inline.forEach((hit, i) => {
      const start = hit.index - 1 + hit[0].length;
      const end = i + 1 < inline.length ? inline[i + 1]!.index - 1 : rest.length;
      out.push({
        number: Number(hit.slice(1).find((g) => g !== undefined)),
        label: rest.slice(start, end).trim(),
        line,
      });
    });
  });
  return out;
}

/** The numbers shown as choices. */
export function choiceNumbers(message: string): Set<number> {
  return new Set(numberedChoices(message).map((c) => c.number));
}

/** The label shown for a choice number (the first one, if a number is shown twice). */
export function labelOf(message: string, option: unknown): string | undefined {
  if (typeof option !== 'number') return undefined;
  return numberedChoices(message).find((c) => c.number === option)?.label;
}

/**
 * The numbering style of a choice's line, as a template: "1. Buy" is `N. label`, "1.Buy" `N.label`, "1) Buy"
 * `N) label`, "1:Buy" `N:label`, "1 - Buy" `N - label`, "0 Back" `N label`. Undefined for a line that shows no choice
 * at its start.
 */
function numberingStyle(line: string): string | undefined {
  const m = new RegExp(AT_LINE_START.source, 'du').exec(line);
  if (!m?.indices?.[6]) return undefined;
  const prefix = line.slice(0, m.indices[6][0]).trimStart();
  return `${prefix.replace(/\d+/, 'N').replace(/\s+/g, ' ')}label`;
}

/**
 * The style of each option's line: for each option number, the last line that starts with it (a choice list follows
 * the text, and a text line such as "2 holdings" may start with the same number).
 */
export function optionStyles(message: string, numbers: readonly number[]): string[] {
  const lines = message.split(/\r\n|\r|\n/);
  return numbers.flatMap((n) => {
    const line = lines.findLast((l) => AT_LINE_START.exec(l) !== null && numberedChoices(l)[0]?.number === n);
    const style = line === undefined ? undefined : numberingStyle(line);
    return style === undefined ? [] : [style];
  });
}
