// The evidence text of a check (spec sentence, expectation, observation, the exchange, a replay line), written once
// and shared by the human and JUnit reporters so a reviewer reads the same thing in the terminal and in CI.
import { specLines } from './requirement-text.js';
import { visible, visibleLine } from './visible.js';
import { firstSignatureInput } from '../http/signature.js';
import type { Exchange, RecordedMessage, RecordedRequest } from '../http/exchange.js';
import type { CheckResult, RunInfo } from '../engine/index.js';
import { contentDigest } from '../http/digest.js';
import { hasHeader, headerValue, type HttpMessage } from '../http/message.js';
import {
  DEFAULT_SIGNING_PROFILE,
  profileComponents,
  type SigningProfile,
  type TargetComponent,
} from '../http/signature.js';
import { defaultContentType, isMutating, isTokenEndpoint } from '../replay/request.js';

/** How much of a body a report shows; the recorder keeps more, the JSON report has all it kept. */
const BODY_DISPLAY_LIMIT = 1024;
/** Width of the label column ("request", "response", …): a terminal wraps a long line under the column after it. */
export const LABEL_WIDTH = 10;

const REDACTED = '[redacted]';

/** A labelled block of evidence: the label goes in the first line's left column, the lines stay aligned after it. */
export interface Labelled {
  label: string;
  lines: string[];
}

// Unsafe characters as escapes: in a module of their own, which `conformance --version` loads without the rest of this one.
export { visible, visibleLine } from './visible.js';

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
  if (message.bodyNotCaptured) return ['(body not captured by the traffic)'];
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
export function exchangeSections(
  exchange: Exchange,
  bodyLimit = BODY_DISPLAY_LIMIT,
  replay?: ReplayContext,
): Labelled[] {
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
  // No arguments aim a command at the target again: a run of `conformance client`, whose sandboxes are gone.
  if (replay?.targetArgs.length !== 0)
    sections.push({ label: 'replay', lines: [replayLine(request, exchange.startedAt, replay)] });
  return sections;
}

/** What a failed, warned or errored check shows: the spec sentence, the expectation, the observation, and the exchange. */
export function findingSections(
  result: CheckResult,
  options: { allExchanges?: boolean; replay?: ReplayContext; seenBy?: string } = {},
): Labelled[] {
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
  if (options.seenBy !== undefined) sections.push({ label: 'seen by', lines: textLines(options.seenBy) });
  // The exchange the verdict was drawn from: the one the check named, else its last (earlier ones are set-up).
  const named = result.exchanges.find((e) => e.seq === finding?.exchangeSeq);
  const exchanges = options.allExchanges ? result.exchanges : named ? [named] : result.exchanges.slice(-1);
  for (const exchange of exchanges) sections.push(...exchangeSections(exchange, BODY_DISPLAY_LIMIT, options.replay));
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
export function formatExchange(exchange: Exchange, bodyLimit = BODY_DISPLAY_LIMIT, replay?: ReplayContext): string {
  return renderLabelled(exchangeSections(exchange, bodyLimit, replay)).join('\n');
}

// ---- the replay line -----------------------------------------------------------------------------------------

/**
 * What a replay line needs of the run (RunInfo.replay): its base URL, so that a request is replayed by its path (the
 * built-in server listens on another port each time), the arguments that aim `conformance curl` at the run's target,
 * and the client id and keyid the run's own requests carried, so that a line names them only where a check sent others.
 */
export interface ReplayContext {
  baseUrl: string;
  targetArgs: readonly string[];
  clientId?: string;
  keyId?: string;
  /** The signing profile the run's requests were signed with; the default profile's when the report does not say. */
  signing?: SigningProfile;
}

/**
 * The replay context of a run (its RunInfo, or what a reporter hears when it starts); a report of a version before
 * RunInfo.replay gets `--target <name>` only.
 */
export function replayContextOf(run: Pick<RunInfo, 'target' | 'baseUrl' | 'replay'>): ReplayContext {
  return {
    baseUrl: run.baseUrl,
    targetArgs: run.replay?.targetArgs ?? ['--target', run.target],
    ...(run.replay ? { clientId: run.replay.clientId, keyId: run.replay.keyId } : {}),
    ...(run.replay?.signing
      ? {
          signing: {
            ...run.replay.signing,
            components: run.replay.signing.components as TargetComponent[],
          },
        }
      : {}),
  };
}

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

/** A word the shell takes as it is needs no quotes: paths, check ids, option values like --created=-660. */
function word(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : shellQuote(text);
}

// The name just before a masked value: `"clientSecret":"`, `clientSecret=`, `token=`.
const NAME_BEFORE_VALUE = /([A-Za-z][A-Za-z0-9_-]*)"?\s*[:=]\s*"?$/;

/** The placeholder conformance curl fills for a masked value, by the name of the field it stood in. */
function placeholderFor(name: string | undefined): string | undefined {
  const key = name?.toLowerCase().replace(/[_-]/g, '');
  if (key === 'clientsecret') return '{{clientSecret}}';
  if (key === 'token' || key === 'accesstoken') return '{{token}}';
  return undefined;
}

/**
 * Masked values as the placeholders curl fills from the target ({{clientSecret}}, {{token}}); one curl cannot fill
 * stays `[redacted]`, and the line says so.
 */
function unmask(text: string, notes: Set<string>, fallback?: string): string {
  if (!text.includes(REDACTED)) return text;
  const parts = text.split(REDACTED);
  let out = '';
  parts.forEach((part, i) => {
    out += part;
    if (i === parts.length - 1) return;
    const placeholder = placeholderFor(NAME_BEFORE_VALUE.exec(out)?.[1]) ?? fallback;
    if (placeholder) out += placeholder;
    else {
      out += REDACTED;
      notes.add('a value the report masked is sent as the text [redacted]: put the real one in its place');
    }
  });
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How far `created` may lie from the exchange's start and still be "now": signing and sending share a second or two. */
const CLOCK_SLACK_SECONDS = 2;

/**
 * A `npx conformance curl …` line that sends the request again, pasted as it is: the same method, path and query, the
 * headers a check chose (those curl makes itself, the bearer token, X-Client-Id, the idempotency key, Content-Type,
 * Content-Length, Content-Digest and the signature, are made fresh, and named only where the check sent them otherwise
 * or not at all), the body, and the signature's parameters where the check chose them (its components, created and
 * expires relative to the moment of sending, keyid, label). What the report cannot give back (a body it kept only in
 * part, a masked value curl cannot fill, a signature altered after signing) the line says after a `#`.
 */
export function replayLine(request: RecordedRequest, startedAt: string | undefined, context?: ReplayContext): string {
  const notes = new Set<string>();
  const words = ['npx', 'conformance', 'curl'];
  const method = request.method.toUpperCase();
  const body = request.bodySize > 0 && request.bodyExcerpt !== undefined ? request.bodyExcerpt : undefined;
  if (request.method !== (body !== undefined ? 'POST' : 'GET')) words.push('-X', word(request.method));
  words.push(word(unmask(relativeUrl(request.url, context?.baseUrl), notes)));

  const tokenEndpoint = isTokenEndpoint(request.url);
  const present = (name: string) => hasHeader(request.headers, name);
  const header = (text: string) => words.push('-H', shellQuote(text));
  // Headers curl makes that the check left out.
  if (!tokenEndpoint && !present('authorization')) header('Authorization:');
  if (!tokenEndpoint && !present('x-client-id')) header('X-Client-Id:');
  if (isMutating(method) && !present('x-idempotency-key')) header('X-Idempotency-Key:');
  if (body !== undefined && !present('content-type')) header('Content-Type:');
  if (body !== undefined && !present('content-digest')) header('Content-Digest:');
  // curl obtains a token for the request, and with it the run's signing profile, unless the request carries none.
  const withToken = !tokenEndpoint && headerValue(request.headers, 'authorization') === `Bearer ${REDACTED}`;
  const signature = signatureWords(request, startedAt, context, withToken, notes);
  for (const [name, value] of request.headers) {
    if (!madeByCurl(request, name, value, { tokenEndpoint, body, context })) header(`${name}: ${unmask(value, notes)}`);
  }
  words.push(...signature);
  if (body !== undefined) {
    words.push('-d', shellQuote(unmask(body, notes)));
    if (request.bodyTruncated)
      notes.add(
        `the report kept only the start of this ${formatSize(request.bodySize)} body: the line sends that start only`,
      );
    else if (body.includes('\ufffd'))
      notes.add('the body is not UTF-8 text, and the report keeps it as text: the line does not send it byte for byte');
  }
  words.push(...(context?.targetArgs ?? []).map(word));
  const line = words.join(' ');
  return notes.size > 0 ? `${line}  # ${[...notes].join('; ')}` : line;
}

/** The request's path and query under the run's base URL (what curl takes), or the whole URL when it lies elsewhere. */
function relativeUrl(url: string, baseUrl: string | undefined): string {
  const base = baseUrl?.replace(/\/+$/, '');
  if (base === undefined || !url.startsWith(base)) return url;
  const rest = url.slice(base.length);
  if (rest === '') return '/';
  return rest.startsWith('/') ? rest : rest.startsWith('?') ? `/${rest}` : url;
}

/** Whether a recorded header is one curl makes itself with this very value (then the line leaves it to curl). */
function madeByCurl(
  request: RecordedRequest,
  name: string,
  value: string,
  at: { tokenEndpoint: boolean; body: string | undefined; context: ReplayContext | undefined },
): boolean {
  switch (name.toLowerCase()) {
    // The signature's fields are made again from the options signatureWords gives.
    case 'signature-input':
    case 'signature':
      return true;
    case 'authorization':
      return !at.tokenEndpoint && value === `Bearer ${REDACTED}`;
    case 'x-client-id':
      return !at.tokenEndpoint && at.context?.clientId !== undefined && value === at.context.clientId;
    case 'x-idempotency-key':
      // A fresh key: the recorded one would have a server answer the replay with the first answer it gave.
      return isMutating(request.method) && UUID.test(value.trim());
    case 'content-type':
      return at.body !== undefined && value === defaultContentType(at.body);
    case 'content-length':
      return at.body !== undefined && value.trim() === String(request.bodySize);
    case 'content-digest':
      // A body the report masked part of had the secret in it: its digest is made again over the filled-in body.
      return (
        at.body !== undefined &&
        !request.bodyTruncated &&
        (at.body.includes(REDACTED) || value === contentDigest(new TextEncoder().encode(at.body)))
      );
    case 'host':
      try {
        return new URL(request.url).host.toLowerCase() === value.trim().toLowerCase();
      } catch {
        return false;
      }
    default:
      return false;
  }
}

/**
 * What curl signs with where the line gives no option, field by field, or undefined where the line must say it: with a
 * token, curl learns the run's profile again (its token request finds the shape the run found, or the config sets it);
 * without one, curl signs in the config's fields and the default profile's for the rest, so a field the run learnt
 * otherwise than the default is said explicitly.
 */
function replayBasis(
  run: SigningProfile,
  withToken: boolean,
): { [K in keyof SigningProfile]: SigningProfile[K] | undefined } {
  if (withToken) return run;
  const known = <K extends keyof SigningProfile>(k: K) =>
    JSON.stringify(run[k]) === JSON.stringify(DEFAULT_SIGNING_PROFILE[k]) ? run[k] : undefined;
  return { windowSeconds: known('windowSeconds'), components: known('components'), label: known('label') };
}

/**
 * The signing options that make the recorded Signature-Input again, relative to the moment of sending: --no-sign,
 * --components, --created/--expires (seconds from now, or none), --keyid, --label, --param, each where the request was
 * signed otherwise than in the run's signing profile; a Signature-Input curl cannot make (not a structured
 * dictionary, component parameters) goes as recorded, after signing.
 */
function signatureWords(
  request: RecordedRequest,
  startedAt: string | undefined,
  context: ReplayContext | undefined,
  withToken: boolean,
  notes: Set<string>,
): string[] {
  const basis = replayBasis(context?.signing ?? DEFAULT_SIGNING_PROFILE, withToken);
  const inputField = headerValue(request.headers, 'signature-input');
  const sigField = headerValue(request.headers, 'signature');
  if (inputField === undefined && sigField === undefined) return ['--no-sign'];
  const words: string[] = [];
  const header = (text: string) => words.push('-H', shellQuote(text));
  if (sigField === undefined) header('Signature:');
  if (inputField === undefined) header('Signature-Input:');
  const input = inputField === undefined ? undefined : readInput(inputField);
  if (inputField !== undefined && input === undefined) {
    header(`Signature-Input: ${inputField}`);
    notes.add("Signature-Input goes as recorded, over a signature made for the profile's own");
  }
  if (input) {
    if (input.label !== basis.label) words.push('--label', word(input.label));
    const unsigned: HttpMessage = {
      method: request.method,
      url: request.url,
      headers: request.headers.filter(([n]) => !/^signature(-input)?$/i.test(n)),
    };
    const made =
      basis.components === undefined
        ? undefined
        : profileComponents(unsigned, { ...DEFAULT_SIGNING_PROFILE, components: basis.components });
    if (made === undefined || input.components.join(' ') !== made.join(' '))
      words.push('--components', word(input.components.join(',')));
    const sent = Math.floor(Date.parse(startedAt ?? '') / 1000);
    const { keyid, created, expires, others } = input;
    if (keyid === undefined) words.push('--keyid', 'none');
    else if (context?.keyId !== undefined && keyid !== context.keyId) words.push('--keyid', word(String(keyid)));
    if (created === undefined) words.push('--created', 'none');
    else if (Math.abs(created - sent) > CLOCK_SLACK_SECONDS) words.push(`--created=${created - sent}`);
    if (expires === undefined) words.push('--expires', 'none');
    else if (basis.windowSeconds === undefined || Math.abs(expires - sent - basis.windowSeconds) > CLOCK_SLACK_SECONDS)
      words.push(`--expires=${expires - sent}`);
    for (const [name, value] of others)
      words.push(
        '--param',
        word(`${name}=${typeof value === 'number' ? value : `"${value.replace(/["\\]/g, '\\$&')}"`}`),
      );
    if (input.more > 0) notes.add(`only the first of the request's ${input.more + 1} signatures is made again`);
  }
  // The signature's own bytes are masked: a label or a shape other than the input's is kept around fresh bytes.
  if (
    sigField !== undefined &&
    sigField !== `${input?.label ?? basis.label ?? DEFAULT_SIGNING_PROFILE.label}=:${REDACTED}:`
  )
    header(`Signature: ${sigField.split(`:${REDACTED}:`).join(':{{signature}}:')}`);
  return words;
}

interface ReadInput {
  label: string;
  components: string[];
  keyid?: string | number;
  created?: number;
  expires?: number;
  others: Array<[string, string | number]>;
  /** Signatures after the first. */
  more: number;
}

/** The first signature of a Signature-Input, when curl's options can make it again. */
function readInput(field: string): ReadInput | undefined {
  const first = firstSignatureInput(field);
  if (first === undefined) return undefined;
  const { items, params } = first;
  const components: string[] = [];
  for (const [name, itemParams] of items) {
    if (typeof name !== 'string' || itemParams.size > 0 || /[,\s]/.test(name)) return undefined;
    components.push(name);
  }
  const out: ReadInput = { label: first.label, components, others: [], more: first.more };
  for (const [name, value] of params) {
    if (name === 'keyid' && (typeof value === 'string' || typeof value === 'number')) out.keyid = value;
    else if ((name === 'created' || name === 'expires') && typeof value === 'number' && Number.isInteger(value))
      out[name] = value;
    else if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)))
      out.others.push([name, value]);
    else return undefined;
  }
  return out;
}
