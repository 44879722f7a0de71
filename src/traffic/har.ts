// `conformance judge FILE.har` (issue 30): a HAR 1.2 file, as browsers, proxies and our own --har report write it,
// read into TrafficExchange[] for the judges. Bad input ends in one HarError line (CONFORMANCE_ERR_HAR); nothing
// else is thrown. What is refused: text that is not JSON, a file without log.entries, an entry of the wrong shape, an
// http(s) request URL that is not absolute. What is skipped and counted (no judge has anything to say of it, and
// refusing would make every browser HAR unusable): CONNECT tunnels, websocket entries, and URLs that are not http(s)
// (data:, blob:, chrome-extension:…), which devtools lists beside the real requests. Entries marked as webhook
// deliveries (./delivery.ts: a run's --har writes those its receiver got) are read apart, as a proxy session keeps them.
import { HarError } from '../errors.js';
import type { TrafficExchange, TrafficRequest, TrafficResponse } from './exchange.js';
import { DELIVERY_FIELD } from './delivery.js';
import { requestBody, responseBody } from './har-body.js';
import { parseHarJson } from './har-json.js';
import { EntryReader } from './har-shape.js';

type SkipReason = 'connect' | 'websocket' | 'not-http';

export interface HarTraffic {
  exchanges: TrafficExchange[];
  /** The server's webhook deliveries the file marks as such (DELIVERY_FIELD), with the receiver's answers. */
  deliveries: TrafficExchange[];
  /** Entries left out, by reason (only reasons that happened). */
  skipped: Partial<Record<SkipReason, number>>;
  /** The tool that wrote the file (log.creator.name), when it says. */
  creator?: string;
}

// The value our --har report (src/report/har.ts, through src/http/redact.ts) writes in place of a secret.
const REDACTED = '[redacted]';

/** Reads a HAR file's text; `source` names it in the error line (the file name). Throws only HarError. */
export function readHar(text: string, source = 'the HAR file'): HarTraffic {
  const log = harLog(parseHarJson(text, source), source);
  const skipped: HarTraffic['skipped'] = {};
  const exchanges: TrafficExchange[] = [];
  const deliveries: TrafficExchange[] = [];
  log.entries.forEach((raw, index) => {
    const entry = new EntryReader(index);
    const reason = skipReason(entry, entry.object(raw, 'the entry'));
    if (reason !== undefined) skipped[reason] = (skipped[reason] ?? 0) + 1;
    else
      (DELIVERY_FIELD in (raw as object) ? deliveries : exchanges).push(
        exchange(entry, raw as Record<string, unknown>, log.creator === 'conformance'),
      );
  });
  // Our own report also masks secrets inside request bodies (a token form): such a body is not the one that went, so
  // it is not captured (a digest over it would not match). A response body with a masked value (a token answer's
  // token) stays: no judge recomputes a digest over an answer, and its other members are the server's as it sent them.
  if (log.creator === 'conformance') {
    [...exchanges, ...deliveries].forEach(unmaskRequestBody);
    // Only a run writes deliveries into a conformance HAR, and its receiver's answers are not a client's.
    for (const d of deliveries) d.answeredByRun = true;
  }
  return { exchanges, deliveries, skipped, ...(log.creator !== undefined ? { creator: log.creator } : {}) };
}

function harLog(json: unknown, source: string): { entries: unknown[]; creator?: string } {
  const log = (json as { log?: unknown } | null)?.log;
  const entries = (log as { entries?: unknown } | null | undefined)?.entries;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Array.isArray(entries)) {
    throw new HarError(
      `${source} is not a HAR: it has no log.entries list; give a file saved as HAR (devtools' Network tab: Save all as HAR with content; mitmproxy: save as HAR)`,
    );
  }
  const name = (log as { creator?: { name?: unknown } }).creator?.name;
  return { entries, ...(typeof name === 'string' ? { creator: name } : {}) };
}

/** Why an entry is left out, or undefined to read it. The URL is checked here so a data: URL is not "not absolute". */
function skipReason(entry: EntryReader, raw: Record<string, unknown>): SkipReason | undefined {
  const request = entry.object(raw.request, 'request');
  const method = entry.string(request.method, 'request.method');
  const url = entry.string(request.url, 'request.url');
  if (method.toUpperCase() === 'CONNECT') return 'connect';
  if (raw._resourceType === 'websocket' || Array.isArray(raw._webSocketMessages) || /^wss?:/i.test(url)) {
    return 'websocket';
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return 'not-http';
  if (!URL.canParse(url)) entry.fail('request.url', `"${url.slice(0, 80)}" is not an absolute http(s) URL`);
  return undefined;
}

function exchange(entry: EntryReader, raw: Record<string, unknown>, ownReport: boolean): TrafficExchange {
  const request = readRequest(entry, entry.object(raw.request, 'request'));
  const response = readResponse(entry, entry.optionalObject(raw.response, 'response'), request.method, ownReport);
  const startedAt = entry.optionalString(raw.startedDateTime, 'startedDateTime');
  const durationMs = entry.optionalNumber(raw.time, 'time');
  const redacted = redactedNames(request, response);
  return {
    index: entry.index,
    ...(startedAt !== undefined && startedAt !== '' ? { startedAt } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    request,
    ...(response !== undefined ? { response } : {}),
    ...(redacted !== undefined ? { redacted } : {}),
  };
}

function readRequest(entry: EntryReader, request: Record<string, unknown>): TrafficRequest {
  const headers = fields(entry.nameValues(request.headers, 'request.headers'));
  const httpVersion = version(entry.optionalString(request.httpVersion, 'request.httpVersion'));
  return {
    method: entry.string(request.method, 'request.method'),
    url: entry.string(request.url, 'request.url'),
    ...(httpVersion !== undefined ? { httpVersion } : {}),
    headers,
    ...requestBody(entry, request, headers),
  };
}

/** Status 0 is how Chrome (and our report) record a request that got no answer: no response, not a status. */
function readResponse(
  entry: EntryReader,
  response: Record<string, unknown> | undefined,
  method: string,
  ownReport: boolean,
): TrafficResponse | undefined {
  if (response === undefined) return undefined;
  const status = entry.optionalNumber(response.status, 'response.status');
  if (status === undefined || status === 0) return undefined;
  if (!Number.isInteger(status) || status < 100 || status > 999)
    entry.fail('response.status', `${status} is not an HTTP status`);
  const headers = fields(entry.nameValues(response.headers, 'response.headers'));
  const httpVersion = version(entry.optionalString(response.httpVersion, 'response.httpVersion'));
  const body =
    method.toUpperCase() === 'HEAD'
      ? { body: new Uint8Array(0), bodyState: 'empty' as const }
      : responseBody(entry, response, status, ownReport);
  return { status, ...(httpVersion !== undefined ? { httpVersion } : {}), headers, ...body };
}

/**
 * HTTP/2 pseudo-headers (`:authority`, `:method`, `:path`, `:scheme`, `:status`), which Chrome and mitmproxy list among
 * the headers, are not fields of the message: a judge counting or signing fields must not see them. The rest keep
 * their order and their names' case.
 */
function fields(pairs: Array<[string, string]>): Array<[string, string]> {
  return pairs.filter(([name]) => !name.startsWith(':'));
}

/** Exporters write "" or "unknown" when they do not know the version: that is no version. */
function version(value: string | undefined): string | undefined {
  return value === undefined || value === '' || value.toLowerCase() === 'unknown' ? undefined : value;
}

const REDACTED_BYTES = Buffer.from(REDACTED);

function unmaskRequestBody({ request }: TrafficExchange): void {
  if (request.bodyState === 'captured' && Buffer.from(request.body).includes(REDACTED_BYTES)) {
    request.body = new Uint8Array(0);
    request.bodyState = 'not-captured';
  }
}

function redactedNames(request: TrafficRequest, response: TrafficResponse | undefined): TrafficExchange['redacted'] {
  const names = (headers: Array<[string, string]>): string[] | undefined => {
    const found = [...new Set(headers.filter(([, v]) => v.includes(REDACTED)).map(([n]) => n.toLowerCase()))];
    return found.length > 0 ? found : undefined;
  };
  const req = names(request.headers);
  const res = response && names(response.headers);
  if (req === undefined && res === undefined) return undefined;
  return { ...(req !== undefined ? { request: req } : {}), ...(res !== undefined ? { response: res } : {}) };
}
