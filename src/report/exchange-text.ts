// The evidence text of a check (spec sentence, expectation, observation, the exchange, a curl replay), written once
// and shared by the human and JUnit reporters so a reviewer reads the same thing in the terminal and in CI.
import { specLines } from './requirement-text.js';
import type { Exchange, RecordedMessage, RecordedRequest } from '../http/exchange.js';
import type { CheckResult } from '../engine/index.js';

/** How much of a body a report shows; the recorder keeps more, the JSON report has all it kept. */
const BODY_DISPLAY_LIMIT = 1024;
/** Width of the label column ("request", "response", …). */
const LABEL_WIDTH = 10;

const REDACTED = '[redacted]';

/** A labelled block of evidence: the label goes in the first line's left column, the lines stay aligned after it. */
export interface Labelled {
  label: string;
  lines: string[];
}

// Characters that could drive a terminal (ESC sequences, bidi overrides that reorder what a reviewer reads), are not
// legal in XML 1.0, or are lone surrogates. The server controls bodies and headers, so none of them may pass through raw.
const UNSAFE_KEEPING_NEWLINES =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/gu;
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/gu;

function escapeChar(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text with unsafe characters shown as `\u001b`-style escapes; newlines and tabs kept. */
export function visible(text: string): string {
  return text.replace(UNSAFE_KEEPING_NEWLINES, escapeChar);
}

/** Like `visible`, for text that must stay on one line (header values, messages). */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Splits text into display lines, each made safe. */
export function textLines(text: string): string[] {
  return visible(text.replace(/\r\n/g, '\n')).split('\n');
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** `, up to 4 checks at once` / `, one check at a time`, or nothing for a report that does not say. */
export function concurrencyNote(concurrency: number | undefined): string {
  if (concurrency === undefined) return '';
  return concurrency === 1 ? ', one check at a time' : `, up to ${concurrency} checks at once`;
}

/** Cuts to at most `limit` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

/** The body excerpt as display lines, with a note of the full size when it is cut. Empty when there is no body. */
export function bodyLines(message: RecordedMessage, limit = BODY_DISPLAY_LIMIT): string[] {
  if (message.bodySize === 0 && !message.bodyExcerpt) return [];
  if (message.bodyExcerpt === undefined) return [`(body of ${formatSize(message.bodySize)} not recorded)`];
  const shown = cut(message.bodyExcerpt, limit);
  const lines = textLines(shown);
  // Sizes are not compared: redaction changes the excerpt's length without cutting anything.
  if (message.bodyTruncated || shown !== message.bodyExcerpt) {
    lines.push(`… (first ${formatSize(Buffer.byteLength(shown, 'utf8'))} of ${formatSize(message.bodySize)})`);
  }
  return lines;
}

function headerLines(headers: ReadonlyArray<[string, string]>): string[] {
  return headers.map(([name, value]) => `${visibleLine(name)}: ${visibleLine(value)}`);
}

/** The exchange as labelled blocks: request, response (or the transport error), replay. */
export function exchangeSections(exchange: Exchange, bodyLimit = BODY_DISPLAY_LIMIT): Labelled[] {
  const { request, response } = exchange;
  const sections: Labelled[] = [];
  const requestBody = bodyLines(request, bodyLimit);
  sections.push({
    label: 'request',
    lines: [
      `${visibleLine(request.method)} ${visibleLine(request.url)}`,
      ...headerLines(request.headers),
      // A blank line before the body, as in an HTTP message, so a body line is never read as a header.
      ...(requestBody.length > 0 ? ['', ...requestBody] : []),
    ],
  });
  if (response) {
    const responseBody = bodyLines(response, bodyLimit);
    sections.push({
      label: 'response',
      lines: [
        `${response.status}  (${formatSize(response.bodySize)}, ${formatDuration(exchange.durationMs)})`,
        ...headerLines(response.headers),
        ...(responseBody.length > 0 ? ['', ...responseBody] : []),
      ],
    });
  }
  if (exchange.error !== undefined) {
    const when = `(after ${formatDuration(exchange.durationMs)})`;
    sections.push({
      label: response ? 'error' : 'response',
      lines: [`${response ? '' : 'none: '}${visibleLine(exchange.error)}  ${when}`],
    });
  } else if (!response) {
    sections.push({ label: 'response', lines: ['none recorded'] });
  }
  sections.push({ label: 'replay', lines: [curlCommand(request)] });
  return sections;
}

/** What a failed, warned or errored check shows: the spec sentence, the expectation, the observation, and the exchange. */
export function findingSections(result: CheckResult, options: { allExchanges?: boolean } = {}): Labelled[] {
  const finding = result.finding;
  const sections: Labelled[] = [{ label: 'spec', lines: specLines(result, finding).flatMap(textLines) }];
  if (result.outcome === 'error') {
    sections.push({ label: 'error', lines: textLines(finding?.message ?? 'the check could not complete') });
  }
  if (finding?.expected !== undefined) sections.push({ label: 'expected', lines: textLines(finding.expected) });
  if (result.outcome !== 'error') {
    // The one-line reason first (it names the field or rule), then the raw observation when the check gave one.
    const observed = [finding?.message, finding?.observed].filter((t): t is string => t !== undefined && t !== '');
    const unique = observed.filter((t, i) => observed.indexOf(t) === i);
    if (unique.length > 0) sections.push({ label: 'observed', lines: unique.flatMap(textLines) });
  } else if (finding?.observed !== undefined) {
    sections.push({ label: 'observed', lines: textLines(finding.observed) });
  }
  // The exchange the verdict was drawn from: the one the check named, else its last (earlier ones are set-up).
  const named = result.exchanges.find((e) => e.seq === finding?.exchangeSeq);
  const exchanges = options.allExchanges ? result.exchanges : named ? [named] : result.exchanges.slice(-1);
  for (const exchange of exchanges) sections.push(...exchangeSections(exchange));
  return sections;
}

/** Lays labelled blocks out as text lines: label column, then aligned content. `styleLabel` lets a terminal colour it. */
export function renderLabelled(
  sections: Labelled[],
  options: { indent?: string; styleLabel?: (label: string) => string } = {},
): string[] {
  const { indent = '', styleLabel = (label: string) => label } = options;
  const pad = ' '.repeat(LABEL_WIDTH);
  const out: string[] = [];
  for (const { label, lines } of sections) {
    lines.forEach((line, i) => {
      if (line === '') out.push('');
      else out.push(`${indent}${i === 0 ? styleLabel(label.padEnd(LABEL_WIDTH)) : pad}${line}`);
    });
  }
  return out;
}

/** One exchange as plain text. */
export function formatExchange(exchange: Exchange, bodyLimit = BODY_DISPLAY_LIMIT): string {
  return renderLabelled(exchangeSections(exchange, bodyLimit)).join('\n');
}

// ---- curl replay ----------------------------------------------------------------------------------------------

/** A piece of a shell argument: literal text, or a shell variable standing for a redacted secret. */
type Piece = { text: string } | { variable: string };

// Anything a shell, a terminal or an XML file could mangle: those strings are written with $'…' escapes instead.
const NEEDS_ANSI_C = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]/u;

/** Quotes a string as one shell word (POSIX single quotes; bash/zsh $'…' when it holds control characters). */
export function shellQuote(text: string): string {
  if (!NEEDS_ANSI_C.test(text)) return `'${text.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else if (NEEDS_ANSI_C.test(ch)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}

// Inside double quotes these keep a special meaning (and `!` triggers history expansion in interactive bash).
const DOUBLE_QUOTE_SPECIAL = /["\\$`!]/;

/** Quotes pieces as one shell word: "…$VAR…" when the literal parts allow it, else '…'"$VAR"'…'. */
function quotePieces(pieces: Piece[]): string {
  const simple = pieces.every(
    (p) => !('text' in p) || (!DOUBLE_QUOTE_SPECIAL.test(p.text) && !NEEDS_ANSI_C.test(p.text)),
  );
  if (simple) {
    let out = '"';
    pieces.forEach((p, i) => {
      if ('text' in p) out += p.text;
      else {
        const next = pieces[i + 1];
        const glued = next !== undefined && 'text' in next && /^[A-Za-z0-9_]/.test(next.text);
        out += glued ? `\${${p.variable}}` : `$${p.variable}`;
      }
    });
    return `${out}"`;
  }
  return (
    pieces.map((p) => ('text' in p ? (p.text === '' ? '' : shellQuote(p.text)) : `"$${p.variable}"`)).join('') || "''"
  );
}

/** SCREAMING_SNAKE_CASE from a field or header name: clientSecret, client_secret, x-api-key. */
function variableName(name: string): string {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(snake) ? snake : 'REDACTED';
}

// The name just before a redacted value: `"clientSecret":"`, `token=`, `x-api-key: `.
const NAME_BEFORE_VALUE = /([A-Za-z][A-Za-z0-9_-]*)"?\s*[:=]\s*"?$/;

/** Splits text at each redaction marker, naming each placeholder after the field it stood in. */
function piecesOf(text: string, fallback = 'REDACTED'): Piece[] {
  const parts = text.split(REDACTED);
  const pieces: Piece[] = [];
  parts.forEach((part, i) => {
    pieces.push({ text: part });
    if (i < parts.length - 1) {
      const name = NAME_BEFORE_VALUE.exec(part)?.[1];
      pieces.push({ variable: name ? variableName(name) : fallback });
    }
  });
  return pieces;
}

function headerArgument(name: string, value: string): string {
  if (!value.includes(REDACTED)) return shellQuote(`${name}: ${value}`);
  const lower = name.toLowerCase();
  if (lower === 'authorization') {
    const scheme = value.slice(0, value.indexOf(REDACTED)).trim();
    if (scheme === '' || /^bearer$/i.test(scheme))
      return quotePieces([{ text: `${name}: Bearer ` }, { variable: 'TOKEN' }]);
    return quotePieces([{ text: `${name}: ${scheme} ` }, { variable: 'CREDENTIALS' }]);
  }
  // A signature must be made afresh for a replay anyway (created/expires), so the whole value is the placeholder.
  if (lower === 'signature') return quotePieces([{ text: `${name}: ` }, { variable: 'SIGNATURE' }]);
  return quotePieces(piecesOf(`${name}: ${value}`, variableName(name)));
}

/** Headers curl sets itself from the URL and the data; kept only when they differ, as a check may send them wrong on purpose. */
function curlSetsItself(request: RecordedRequest, name: string, value: string): boolean {
  const lower = name.toLowerCase();
  if (lower === 'content-length') return request.bodyExcerpt !== undefined && value.trim() === String(request.bodySize);
  if (lower === 'host') {
    try {
      return new URL(request.url).host.toLowerCase() === value.trim().toLowerCase();
    } catch {
      return false;
    }
  }
  return false;
}

/** A copyable curl command that sends the request again, secrets replaced by shell variables ($TOKEN, $SIGNATURE, …). */
export function curlCommand(request: RecordedRequest): string {
  const words = ['curl', '-sS', '-i'];
  const hasBody = request.bodyExcerpt !== undefined && request.bodySize > 0;
  const method = request.method.toUpperCase();
  // -X HEAD would make curl wait for a body that never comes.
  if (method === 'HEAD') words.push('--head');
  else if (!(method === 'GET' && !hasBody) && !(method === 'POST' && hasBody))
    words.push('-X', /^[A-Za-z]+$/.test(request.method) ? request.method : shellQuote(request.method));
  // curl treats [] and {} in a URL as glob patterns unless told not to.
  if (/[[\]{}]/.test(request.url.split(REDACTED).join(''))) words.push('-g');
  words.push(request.url.includes(REDACTED) ? quotePieces(piecesOf(request.url)) : shellQuote(request.url));
  for (const [name, value] of request.headers) {
    if (curlSetsItself(request, name, value)) continue;
    words.push('-H', headerArgument(name, value));
  }
  if (hasBody && request.bodyExcerpt !== undefined) {
    const body = request.bodyExcerpt;
    words.push('--data-binary', body.includes(REDACTED) ? quotePieces(piecesOf(body)) : shellQuote(body));
  }
  let command = words.join(' ');
  if (hasBody && request.bodyTruncated) {
    command += `  # the report kept only the start of this ${formatSize(request.bodySize)} body`;
  }
  return command;
}
