// RFC 9421 §2: component values and the signature base. Shared by the signing client, the reference server's
// verifier and the webhook receiver, so all three build the same bytes from the same rules.
import { serializeInnerList, type Item, type Parameters, type BareItem } from 'structured-headers';
import { headerValues, httpMessageOf, type MessageInput } from './message.js';

export type SignatureParam = [name: string, value: string | number];

/** Why no signature base could be built: the verdict codes of SignatureFailure this error can carry. */
export type SignatureBaseFailure = 'SIGNATURE_BASE_INVALID' | 'COMPONENT_MISSING' | 'SIGNATURE_MALFORMED';

/** RFC 9421 §2.5: "produce an error" (no signature base). `code` says which rule: see SignatureFailure. */
export class SignatureBaseError extends Error {
  constructor(
    message: string,
    readonly code: SignatureBaseFailure = 'SIGNATURE_BASE_INVALID',
  ) {
    super(message);
  }
}

/**
 * The path and query of a target URI exactly as written (RFC 9421 §2.2.6 @path: "represented by their values before
 * decoding any percent-encoded octets"; §2.2.7 @query: "percent-encoded octets are not decoded"): no WHATWG URL
 * parsing, which would turn `'` into `%27` and drop `/./`. `query` is undefined when there is no `?`. Accepts an
 * absolute URI or an origin-form request target (`/path?query`).
 */
export function targetParts(url: string): { path: string; query: string | undefined } {
  const m = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?/.exec(url)!;
  const path = m[1]!;
  if (path !== '' && !path.startsWith('/'))
    throw new SignatureBaseError(`the target URI ${JSON.stringify(url)} is neither absolute nor a path`);
  // §2.2.6: "an empty path string is normalized as a single slash".
  return { path: path === '' ? '/' : path, query: m[2] };
}

/** The value of one covered component (RFC 9421 §2.1 fields, §2.2 derived components). */
function componentValue(message: ReturnType<typeof httpMessageOf>, component: string): string {
  if (component.startsWith('@')) {
    switch (component) {
      case '@method':
        // §2.2.1: "the value of the method as a string"; the method is case-sensitive, so its case is kept.
        return message.method;
      case '@target-uri':
        return message.url;
      case '@authority':
        // §2.2.3: normalised per RFC 9110 §4.2.3 (host lowercased, default port omitted): what WHATWG's host gives.
        return parsedUrl(message.url).host.toLowerCase();
      case '@scheme':
        return parsedUrl(message.url).protocol.replace(/:$/, '').toLowerCase();
      case '@request-target': {
        const { path, query } = targetParts(message.url);
        return `${path}${query ?? ''}`;
      }
      case '@path':
        return targetParts(message.url).path;
      case '@query':
        // §2.2.7: "If the query string is absent from the request message, the value is the leading ? character alone".
        return targetParts(message.url).query ?? '?';
      default:
        throw new SignatureBaseError(`unsupported derived component "${component}"`);
    }
  }
  const values = headerValues(message.headers, component);
  if (values.length === 0)
    throw new SignatureBaseError(`covered header "${component}" is not in the message`, 'COMPONENT_MISSING');
  // §2.1: strip leading and trailing whitespace of each value, replace obsolete line folding (RFC 9112 §5.2:
  // obs-fold = OWS CRLF RWS) by a single space, join multiple fields with ", ".
  return values.map((v) => v.trim().replace(/[ \t]*\r?\n[ \t]+/g, ' ')).join(', ');
}

function parsedUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new SignatureBaseError(`the target URI ${JSON.stringify(url)} is not an absolute URI`);
  }
}

/** The @signature-params value: the inner list of covered components with the signature parameters, in the given order. */
export function signatureParamsValue(components: readonly string[], params: readonly SignatureParam[]): string {
  const items: Item[] = components.map((c) => [c, new Map()]);
  const map: Parameters = new Map<string, BareItem>(params.map(([k, v]) => [k, v]));
  return serializeInnerList([items, map]);
}

/**
 * The signature base (§2.5): one line per component, then "@signature-params"; LF separated, no trailing LF. Component
 * names must be lowercase (§2.1: "implementations MUST use lowercased field names"): the name is written into the base
 * as it is listed in @signature-params, so a capitalised name could not be verified by anyone.
 */
export function signatureBase(message: MessageInput, components: readonly string[], paramsValue: string): string {
  const m = httpMessageOf(message);
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const name of components) {
    if (name !== name.toLowerCase())
      throw new SignatureBaseError(
        `component name "${name}" is not lowercase (RFC 9421 §2.1: component names are lowercased)`,
        'SIGNATURE_MALFORMED',
      );
    if (seen.has(name)) throw new SignatureBaseError(`component "${name}" is listed twice`, 'SIGNATURE_MALFORMED');
    seen.add(name);
    const value = componentValue(m, name);
    if (/[\r\n]/.test(value)) throw new SignatureBaseError(`component "${name}" contains a line break`);
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${paramsValue}`);
  const base = lines.join('\n');
  // §2.5 step 4: "Produce an error if the output string contains any non-ASCII characters".
  const nonAscii = /[^\x00-\x7f]/.exec(base);
  if (nonAscii !== null) {
    const line = base.slice(0, nonAscii.index).split('\n').length - 1;
    const where = line < components.length ? `component "${components[line]}"` : '"@signature-params"';
    throw new SignatureBaseError(
      `${where} contains the non-ASCII character ${JSON.stringify(nonAscii[0])} (U+${nonAscii[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}); RFC 9421 §2.5 allows ASCII only`,
    );
  }
  return base;
}
