// The spec's Markdown as a quote in the HTML report shows it: code spans, bold, links and table rows, never a raw `**`.
// The catalog's quotes use only these (a sentence, a list item, a table row), so a few lines do what a Markdown library
// would, with no dependency to keep and no raw HTML passed through: every character of the input reaches the page
// through escapeHtml, and markup is only ever made here.
import { escapeHtml } from './html-escape.js';

/** A whole quote: a table row (`| a | b |`) becomes cells, any other line stays a line; each line's inline Markdown is rendered. */
export function markdownQuote(text: string): string {
  return text
    .split('\n')
    .map((line) => (isTableRow(line) ? tableRow(line) : listItem(line)))
    .join('<br>');
}

/** A bullet item's `- ` as the bullet it stands for; a numbered item keeps its number (the spec's steps cite them). */
function listItem(line: string): string {
  const bullet = /^(\s*)[-*] (?=\S)/.exec(line);
  return bullet ? `${bullet[1]}• ${inlineMarkdown(line.slice(bullet[0].length))}` : inlineMarkdown(line);
}

function isTableRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

/** A row's cells, split on `|` outside code spans (a cell may quote `a|b`). */
function tableRow(line: string): string {
  const inner = line.trim().slice(1, -1);
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  for (const ch of inner) {
    if (ch === '`') inCode = !inCode;
    if (ch === '|' && !inCode) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return `<span class="md-row">${cells
    .map((c) => `<span class="md-cell">${c.trim() === '' ? '&nbsp;' : inlineMarkdown(c.trim())}</span>`)
    .join('')}</span>`;
}

/**
 * Code spans, `**bold**` and `[text](http…)`, read left to right: nothing inside a code span is Markdown, a bold span
 * may hold code. An unpaired `**` or backtick, or a link to anything but http(s), stays text.
 */
export function inlineMarkdown(text: string): string {
  const token = /`([^`]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(token)) {
    out += escapeHtml(text.slice(last, m.index));
    if (m[1] !== undefined) out += `<code>${escapeHtml(m[1])}</code>`;
    else if (m[2] !== undefined) out += `<strong>${inlineMarkdown(m[2])}</strong>`;
    else out += `<a href="${escapeHtml(m[4]!)}" rel="noreferrer">${escapeHtml(m[3]!)}</a>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}
