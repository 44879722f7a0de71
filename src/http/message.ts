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
