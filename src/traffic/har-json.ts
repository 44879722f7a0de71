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
  const end = text.trimEnd();
  if (endsInside(end, reason)) {
    return `${source} is cut short: its JSON ends inside a value (${where(text, end.length)}); the file was truncated while it was written or copied: save or copy the HAR again`;
  }
  return `${source} is not JSON: ${firstClause(reason)} at ${where(text, errorOffset(text, reason))}; give the HAR file a browser or proxy saved (File > Export HAR / Save all as HAR)`;
}

/** Whether JSON.parse failed only because the text ended (V8 says "end of input", or names the end as the position). */
function endsInside(text: string, reason: string): boolean {
  if (/end of (JSON )?input|Unterminated string/i.test(reason)) return true;
  const position = /position (\d+)/.exec(reason);
  return position !== null && Number(position[1]) >= text.length;
}

/**
 * The offset of the character JSON.parse stopped at. Node 20's V8 names no position for an unexpected token, so it is
 * found by halving: the shortest prefix that fails other than by ending early ends just past the bad character (every
 * shorter prefix is JSON so far). Only on this error path, ~log2(size) parses.
 */
function errorOffset(text: string, reason: string): number {
  const named = /position (\d+)/.exec(reason);
  if (named) return Number(named[1]);
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (failsInside(text.slice(0, mid))) bad = mid;
    else good = mid;
  }
  return bad - 1;
}

function failsInside(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (err) {
    return !endsInside(prefix, err instanceof Error ? err.message : String(err));
  }
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
