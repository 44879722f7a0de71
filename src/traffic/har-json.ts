// The HAR file's text as JSON, or one HarError line saying where it is not JSON. A HAR that a tool was still writing,
// or that a transfer cut, ends inside a value: that is said as "cut short", so the person saves or copies it again
// rather than hunting for a syntax error that is not there.
import { HarError } from '../errors.js';

/** Parses the text (a UTF-8 byte order mark, which Fiddler writes, is dropped first); throws only HarError. */
export function parseHarJson(text: string, source: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw new HarError(`${source} is empty: save the HAR again (it should hold {"log": …})`);
  try {
    return JSON.parse(body);
  } catch (err) {
    throw new HarError(notJsonLine(body, err, source));
  }
}

function notJsonLine(text: string, err: unknown, source: string): string {
  const reason = err instanceof Error ? err.message : String(err);
  const position = errorPosition(text, reason);
  if (position >= text.trimEnd().length || /end of (JSON )?input|Unterminated/i.test(reason)) {
    return `${source} is cut short: its JSON ends inside a value (${where(text, text.trimEnd().length)}); the file was truncated while it was written or copied: save or copy the HAR again`;
  }
  return `${source} is not JSON: ${firstClause(reason)} at ${where(text, position)}; give the HAR file a browser or proxy saved (File > Export HAR / Save all as HAR)`;
}

/** The character offset V8's message names ("at position N"), or the end of the text when it names none. */
function errorPosition(text: string, reason: string): number {
  const match = /position (\d+)/.exec(reason);
  return match ? Number(match[1]) : text.length;
}

/** `line L, column C` (from 1) of a character offset, as editors count them. */
function where(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/** V8's message without its own position and without the excerpt of the text it quotes (which may be huge). */
function firstClause(reason: string): string {
  const clause = reason.split(/ in JSON at position| at position|, "/)[0] ?? reason;
  return clause.replace(/\s+/g, ' ').trim().slice(0, 120);
}
