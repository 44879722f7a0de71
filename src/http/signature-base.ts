// RFC 9421 §2: component values and the signature base. Shared by the signing client, the reference server's
// verifier and the webhook receiver, so all three build the same bytes from the same rules.
import { serializeInnerList, type Item, type Parameters, type BareItem } from 'structured-headers';
import { headerValues, type HttpMessage } from './message.js';

export type SignatureParam = [name: string, value: string | number];

export class SignatureBaseError extends Error {}

/** The value of one covered component (RFC 9421 §2.1 fields, §2.2 derived components). */
function componentValue(message: HttpMessage, component: string): string {
  if (component.startsWith('@')) {
    const url = new URL(message.url);
    switch (component) {
      case '@method':
        return message.method.toUpperCase();
      case '@target-uri':
        return message.url;
      case '@authority':
        return url.host.toLowerCase();
      case '@scheme':
        return url.protocol.replace(/:$/, '').toLowerCase();
      case '@request-target':
        return `${url.pathname}${url.search}`;
      case '@path':
        return url.pathname === '' ? '/' : url.pathname;
      case '@query':
        return url.search === '' ? '?' : url.search;
      default:
        throw new SignatureBaseError(`unsupported derived component "${component}"`);
    }
  }
  const values = headerValues(message.headers, component);
  if (values.length === 0) throw new SignatureBaseError(`covered header "${component}" is not in the message`);
  // §2.1: strip leading/trailing whitespace of each value, join multiple fields with ", ".
  return values.map((v) => v.trim()).join(', ');
}

/** The @signature-params value: the inner list of covered components with the signature parameters, in the given order. */
export function signatureParamsValue(components: readonly string[], params: readonly SignatureParam[]): string {
  const items: Item[] = components.map((c) => [c, new Map()]);
  const map: Parameters = new Map<string, BareItem>(params.map(([k, v]) => [k, v]));
  return serializeInnerList([items, map]);
}

/** The signature base (§2.5): one line per component, then "@signature-params"; LF separated, no trailing LF. */
export function signatureBase(message: HttpMessage, components: readonly string[], paramsValue: string): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const component of components) {
    const name = component.toLowerCase();
    if (seen.has(name)) throw new SignatureBaseError(`component "${name}" is listed twice`);
    seen.add(name);
    const value = componentValue(message, name);
    if (/[\r\n]/.test(value)) throw new SignatureBaseError(`component "${name}" contains a line break`);
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": ${paramsValue}`);
  return lines.join('\n');
}
