// Response shapes of the spec ("Response envelope", "Error body", "Errors") and their serialisation. Handlers return
// a Reply value instead of writing to the socket, so idempotent replay and the fault catalog can store, compare or
// rewrite a reply before it is sent.
import type { ServerResponse } from 'node:http';
import { statusRejectionCode, type Rejection } from './rejection.js';

export interface Reply {
  status: number;
  /** Serialised as JSON; absent for a body-less response. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface PageMeta {
  previousPage: number;
  currentPage: number;
  nextPage: number;
  limit: number;
  currentCount: number;
  totalCount: number;
  sort: 'ASC' | 'DESC';
}

/** Default message per status; the spec fixes only 401 and 404 ("Errors" table), the rest follow RFC 9110 reason phrases. */
const STATUS_TEXT: Record<number, string> = {
  200: 'Success',
  201: 'Success',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
};

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status < 400 ? 'Success' : 'Error');
}

export function ok(data: unknown, status = 200): Reply {
  return { status, body: { data, code: String(status), message: statusText(status) } };
}

export function okList(data: unknown[], meta: PageMeta): Reply {
  return { status: 200, body: { data, code: '200', message: 'Success', meta } };
}

/**
 * An error reply `{code, message}`; `message` defaults to the status text, a 400 should say what was wrong. `code` is
 * the status as a string unless a rule of authentication names the rejection (rejection.ts).
 */
export function fail(status: number, message?: string, headers?: Record<string, string>, code?: string): Reply {
  return {
    status,
    body: { code: code ?? String(status), message: message ?? statusText(status) },
    ...(headers ? { headers } : {}),
  };
}

/**
 * Thrown by validation helpers deep in a handler; the server turns it into `fail(status, message)`. A `rule` (the
 * rules of authentication) also names the body's code and gives the reason the Conformance-Rejection header and the
 * log show.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly headers?: Record<string, string>,
    readonly rule?: Rejection,
  ) {
    super(message ?? statusText(status));
    this.name = 'HttpError';
  }

  /** What the log and the Conformance-Rejection header say of this rejection. */
  get rejection(): Rejection {
    return this.rule ?? { code: statusRejectionCode(this.status), reason: this.message };
  }

  toReply(): Reply {
    return fail(this.status, this.message, this.headers, this.rule?.code);
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

/** The spec fixes the 404 text ("Errors" table), so the message is exactly "Not Found", never the id. */
export function notFound(): HttpError {
  return new HttpError(404, 'Not Found');
}

/**
 * Writes a reply; every body is JSON with `content-type: application/json` (none for 204/304). A reply that names its
 * own `content-type` keeps it: only the fault catalog does, to label JSON otherwise.
 */
/** Writes the reply; returns the headers and the body text as sent. */
export function send(
  res: ServerResponse,
  reply: Reply,
  method: string,
): { headers: Record<string, string>; payload?: string } {
  const headers: Record<string, string> = { ...reply.headers };
  // A string body lets node:http send head and body in one write instead of a writev of two buffers.
  let payload: string | undefined;
  if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload, 'utf8'));
  } else {
    headers['content-length'] = '0';
  }
  res.writeHead(reply.status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
  return { headers, ...(payload !== undefined && method !== 'HEAD' ? { payload } : {}) };
}
