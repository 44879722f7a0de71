// Every exchange of the run as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), so a reviewer can load the
// traffic into browser devtools or any HAR viewer. The exchanges are the recorded ones, redacted at recording time;
// nothing here sees a secret. Bodies are whole where the client kept them (src/http/whole-bodies.ts): the HAR is the
// traffic, while the other reports keep each body's excerpt. After them come the webhook deliveries the run's receiver got (RunResult.deliveries),
// each marked as one (src/traffic/delivery.ts), for `conformance judge` to verify again.
import { mkdir, writeFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { dirname } from 'node:path';
import type { Exchange, RecordedMessage } from '../http/exchange.js';
import type { RunResult } from '../engine/index.js';
import type { Reporter } from '../engine/index.js';
import { DELIVERY, DELIVERY_FIELD } from '../traffic/delivery.js';
import { NOT_CAPTURED_NOTE } from '../traffic/har-body.js';
import { formatSize } from './exchange-text.js';
import { wholeBodyOf } from '../http/whole-bodies.js';

export class HarReporter implements Reporter {
  readonly name: string;

  constructor(private readonly filePath: string) {
    this.name = `HAR file ${filePath}`;
  }

  async onRunEnd(result: RunResult): Promise<void> {
    await mkdir(dirname(this.filePath), { recursive: true });
    await writeFile(this.filePath, harText(result), 'utf8');
  }
}

interface NameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: NameValue[];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string; comment?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
    /** Chrome's own field for a request that got no response. */
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: number; wait: number; receive: number };
  /** The check that sent it, or "session"; custom fields start with "_" (HAR 1.2). Absent on a delivery. */
  _checkId?: string;
  _seq?: number;
  /** A webhook delivery the run's receiver got (DELIVERY_FIELD): its number, from 1. */
  _delivery?: number;
  /** Chrome devtools files an imported entry under this type; "fetch" puts the run's requests under Fetch/XHR. */
  _resourceType: 'fetch';
  comment?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    comment: string;
    entries: HarEntry[];
  };
}

export function toHar(result: RunResult): Har {
  // Traffic a run observed (a client run's, a judged HAR's) is both the run's and, where a finding cites it, a check's:
  // one entry each, the run's own record (the one that kept a body whole; a citation keeps the excerpt).
  const bySeq = new Map(
    [...result.checks.flatMap((c) => c.exchanges), ...result.sessionExchanges].map((e) => [e.seq, e]),
  );
  const exchanges = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  return {
    log: {
      version: '1.2',
      creator: { name: 'conformance', version: result.run.suiteVersion },
      comment: `conformance run against ${result.run.target} (${result.run.baseUrl}), spec ${result.run.specVersion}; secrets are shown as [redacted]`,
      entries: [...exchanges, ...(result.deliveries ?? [])].map((e) => entry(e, result.run.startedAt)),
    },
  };
}

/**
 * Written compact: indentation was a third of a full run's 2.6 MB, and HAR viewers (browser devtools) parse it. Every
 * field HAR 1.2 requires stays, empty ones too (cookies, cache, headersSize): viewers reject an entry without them.
 */
export function harText(result: RunResult): string {
  return `${JSON.stringify(toHar(result))}\n`;
}

// The recorder does not keep the protocol version; the client speaks HTTP/1.1.
const HTTP_VERSION = 'HTTP/1.1';

/** `runStartedAt`: the time HAR 1.2 requires of an observed exchange whose source gave none, said in its comment. */
function entry(exchange: Exchange, runStartedAt: string): HarEntry {
  const { request, response } = exchange;
  // The recorder measures one span, from sending to the end of the body: HAR's `wait` holds it, so time = the sum of timings.
  const time = Math.max(0, exchange.durationMs);
  const mimeType = header(request, 'content-type') ?? '';
  const postData =
    request.bodyExcerpt !== undefined
      ? { mimeType, ...bodyText(request, request.bodyExcerpt) }
      : request.bodyNotCaptured
        ? { mimeType, text: '', comment: NOT_CAPTURED_NOTE }
        : undefined;
  return {
    startedDateTime: exchange.startedAt ?? runStartedAt,
    time,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: headers(request),
      queryString: queryString(request.url),
      ...(postData ? { postData } : {}),
      headersSize: -1,
      bodySize: request.bodySize,
    },
    response: response
      ? {
          status: response.status,
          statusText: STATUS_CODES[response.status] ?? '',
          httpVersion: HTTP_VERSION,
          cookies: [],
          headers: headers(response),
          content: {
            size: response.bodySize,
            mimeType: header(response, 'content-type') ?? 'x-unknown',
            ...(response.bodyExcerpt !== undefined ? bodyText(response, response.bodyExcerpt) : {}),
            ...(response.bodyNotCaptured ? { comment: NOT_CAPTURED_NOTE } : {}),
          },
          redirectURL: header(response, 'location') ?? '',
          headersSize: -1,
          bodySize: response.bodySize,
        }
      : {
          // HAR has no place for "no response": status 0 with the error is what Chrome writes and devtools shows.
          status: 0,
          statusText: '',
          httpVersion: HTTP_VERSION,
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: 'x-unknown' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
          _error: exchange.error ?? 'no response recorded',
        },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
    ...(exchange.checkId === DELIVERY
      ? { [DELIVERY_FIELD]: exchange.seq }
      : { _checkId: exchange.checkId, _seq: exchange.seq }),
    _resourceType: 'fetch',
    ...(exchange.error !== undefined || exchange.startedAt === undefined
      ? {
          comment: [
            exchange.error,
            exchange.startedAt === undefined
              ? "observed traffic without a time: startedDateTime is the run's start"
              : undefined,
          ]
            .filter((c) => c !== undefined)
            .join('; '),
        }
      : {}),
  };
}

function headers(message: RecordedMessage): NameValue[] {
  return message.headers.map(([name, value]) => ({ name, value }));
}

function header(message: RecordedMessage, name: string): string | undefined {
  return message.headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

function queryString(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

/** The body whole when the client kept it (src/http/whole-bodies.ts), else the excerpt, said to be cut when it is. */
function bodyText(message: RecordedMessage, excerpt: string): { text: string; comment?: string } {
  const whole = wholeBodyOf(message);
  if (whole !== undefined || !message.bodyTruncated) return { text: whole ?? excerpt };
  return {
    text: excerpt,
    comment: `the report kept only the start of this ${formatSize(message.bodySize)} body`,
  };
}
