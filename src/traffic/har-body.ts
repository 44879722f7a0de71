// The bytes of a HAR entry's bodies, or why they are not known. A body the file does not hold whole is "not-captured",
// never the part it holds: a judge recomputing a digest or a signature over a cut body would blame the server wrongly.
import type { BodyState } from './exchange.js';
import type { EntryReader } from './har-shape.js';

type Json = Record<string, unknown>;

export interface Body {
  body: Uint8Array;
  bodyState: BodyState;
}

const NONE = new Uint8Array(0);
const EMPTY: Body = { body: NONE, bodyState: 'empty' };
const NOT_CAPTURED: Body = { body: NONE, bodyState: 'not-captured' };
// Our own --har report (src/report/har.ts) says so in a comment when it kept only the start of a body, or when the
// traffic it recorded had not captured the body at all (NOT_CAPTURED_NOTE).
const CUT_BY_REPORT = /kept only the start/;
export const NOT_CAPTURED_NOTE = 'the body was not captured';
// Characters form encoding leaves as they are: params made only of these rebuild to the exact bytes that went.
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** The request body from postData: its text, else params rebuilt when exact, else what bodySize and headers say. */
export function requestBody(entry: EntryReader, request: Json, headers: Array<[string, string]>): Body {
  const postData = entry.optionalObject(request.postData, 'request.postData');
  const bodySize = entry.optionalNumber(request.bodySize, 'request.bodySize');
  if (postData === undefined)
    return bodySize === 0 || (bodySize === undefined && !announcesBody(headers)) ? EMPTY : NOT_CAPTURED;
  const comment = entry.optionalString(postData.comment, 'request.postData.comment');
  const text = entry.optionalString(postData.text, 'request.postData.text');
  if (text !== undefined) return captured(new TextEncoder().encode(text), bodySize, comment);
  if (postData.params === undefined) return NOT_CAPTURED;
  const params = entry.nameValues(postData.params, 'request.postData.params');
  const mimeType = entry.optionalString(postData.mimeType, 'request.postData.mimeType') ?? '';
  return rebuiltForm(params, mimeType, bodySize);
}

/**
 * The response body from content: text (base64 when `encoding` says so), else what the sizes say. In our own report
 * (`ownReport`) the sizes are those of the bodies that went, while the text has its secrets masked ("[redacted]" is
 * shorter or longer than what it stands for): only the report's note that it kept the start says a body is cut there.
 */
export function responseBody(entry: EntryReader, response: Json, status: number, ownReport = false): Body {
  const content = entry.optionalObject(response.content, 'response.content');
  const bodySize = entry.optionalNumber(response.bodySize, 'response.bodySize');
  const size = content && entry.optionalNumber(content.size, 'response.content.size');
  const text = content && entry.optionalString(content.text, 'response.content.text');
  const comment = content && entry.optionalString(content.comment, 'response.content.comment');
  if (comment === NOT_CAPTURED_NOTE) return NOT_CAPTURED;
  if (content === undefined || text === undefined) {
    // 204 and 304 have no body by definition; else only sizes of 0 say the body was empty rather than left out.
    if (status === 204 || status === 304 || size === 0 || (size === undefined && bodySize === 0)) return EMPTY;
    return NOT_CAPTURED;
  }
  const encoding = entry.optionalString(content.encoding, 'response.content.encoding');
  const measured = ownReport ? undefined : size;
  if (encoding === undefined || encoding === '') return captured(new TextEncoder().encode(text), measured, comment);
  if (encoding !== 'base64')
    entry.fail('response.content.encoding', `is "${encoding.slice(0, 40)}", not "base64", the only one HAR 1.2 knows`);
  if (!BASE64.test(text)) entry.fail('response.content.text', 'is not base64 though its encoding says so');
  return captured(new Uint8Array(Buffer.from(text, 'base64')), measured, comment);
}

/**
 * The bytes as captured, unless the file says they are cut: our report's comment, or fewer bytes than the size the
 * exporter measured (content.size / bodySize are the decoded length in Chrome, Firefox and mitmproxy).
 */
function captured(bytes: Uint8Array, size: number | undefined, comment: string | undefined): Body {
  if (comment !== undefined && (CUT_BY_REPORT.test(comment) || comment === NOT_CAPTURED_NOTE)) return NOT_CAPTURED;
  if (size !== undefined && bytes.byteLength < size) return NOT_CAPTURED;
  return bytes.byteLength === 0 ? EMPTY : { body: bytes, bodyState: 'captured' };
}

/**
 * Form params without text: the encoding the client used (space as + or %20, the case of %xx) is lost, so the bytes
 * are rebuilt only when no param needs encoding; otherwise the body is not captured, never a guess.
 */
function rebuiltForm(params: Array<[string, string]>, mimeType: string, size: number | undefined): Body {
  const form = mimeType.toLowerCase().startsWith('application/x-www-form-urlencoded');
  if (!form || !params.every(([n, v]) => UNRESERVED.test(n) && UNRESERVED.test(v))) return NOT_CAPTURED;
  const text = params.map(([n, v]) => `${n}=${v}`).join('&');
  return captured(new TextEncoder().encode(text), size, undefined);
}

/** Whether the headers say a body went: a Content-Length above 0 or a Transfer-Encoding. */
function announcesBody(headers: Array<[string, string]>): boolean {
  return headers.some(([name, value]) => {
    const lower = name.toLowerCase();
    return (lower === 'content-length' && Number(value) > 0) || lower === 'transfer-encoding';
  });
}
