/** An HTTP request or response as the signing code sees it: header order and repeated fields are kept (RFC 9421 §2.1). */
export interface HttpMessage {
  method: string;
  /** The absolute target URI (RFC 9421 @target-uri). */
  url: string;
  headers: Array<[string, string]>;
}

/** All values of a header field, in order, matched case-insensitively. */
export function headerValues(headers: ReadonlyArray<readonly [string, string]>, name: string): string[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

export function headerValue(headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const values = headerValues(headers, name);
  return values.length === 0 ? undefined : values.join(', ');
}

export function hasHeader(headers: ReadonlyArray<readonly [string, string]>, name: string): boolean {
  return headerValues(headers, name).length > 0;
}

/** Removes every field of that name; returns how many were removed. */
export function removeHeader(headers: Array<[string, string]>, name: string): number {
  const lower = name.toLowerCase();
  let removed = 0;
  for (let i = headers.length - 1; i >= 0; i--) {
    if (headers[i]![0].toLowerCase() === lower) {
      headers.splice(i, 1);
      removed++;
    }
  }
  return removed;
}

/** Replaces the field (all its values) by one value, keeping the position of the first occurrence. */
export function setHeader(headers: Array<[string, string]>, name: string, value: string): void {
  const lower = name.toLowerCase();
  const at = headers.findIndex(([n]) => n.toLowerCase() === lower);
  removeHeader(headers, name);
  if (at === -1) headers.push([name, value]);
  else headers.splice(at, 0, [name, value]);
}

/** The path and query of a URL, as a report names a request and the receiver tells its URLs apart; the text itself when it is no URL. */
export function pathAndQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/**
 * Header fields as people hold them: an array of [name, value] pairs (order and repeated fields kept), a plain object
 * (`{ 'Content-Type': 'application/json' }`; an array value is a repeated field, as node:http gives them), a WHATWG
 * `Headers`, or any other iterable of pairs (a Map).
 */
export type HeadersInput =
  | ReadonlyArray<readonly [string, string]>
  | Iterable<readonly [string, string]>
  | Readonly<Record<string, string | number | readonly string[] | undefined>>;

/** A request as the library's callers hand it over: headers in any of the HeadersInput shapes. */
export interface MessageInput {
  method: string;
  /** The absolute target URI, as sent: @path and @query are read from this text, not from a parsed URL. */
  url: string;
  headers: HeadersInput;
}

function isPair(pair: unknown): pair is [string, string] {
  return Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && typeof pair[1] === 'string';
}

/** The header pairs of any HeadersInput; throws TypeError, in one line, for anything else. */
function headerPairs(input: HeadersInput): Array<[string, string]> {
  if (input === null || typeof input !== 'object')
    throw new TypeError(`headers must be an object, a Headers or an array of [name, value] pairs, not ${typeof input}`);
  const pairs: Array<[string, string]> = [];
  if (Symbol.iterator in input) {
    for (const pair of input as Iterable<unknown>) {
      if (!isPair(pair))
        throw new TypeError(`headers: each entry must be a [name, value] pair of strings, not ${JSON.stringify(pair)}`);
      pairs.push([pair[0], pair[1]]);
    }
    return pairs;
  }
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string' && typeof v !== 'number')
        throw new TypeError(`headers: the value of "${name}" must be a string, a number or an array of strings`);
      pairs.push([name, String(v)]);
    }
  }
  return pairs;
}

/** The HttpMessage of a MessageInput (the same object when its headers are already an array of pairs). */
export function httpMessageOf<M extends MessageInput>(message: M): Omit<M, 'headers'> & HttpMessage {
  if (Array.isArray(message.headers) && message.headers.every(isPair))
    return message as unknown as Omit<M, 'headers'> & HttpMessage;
  return { ...message, headers: headerPairs(message.headers) };
}
