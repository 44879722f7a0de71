// Reading a delivery's JSON payload, whose fields are "not shown": the event is found by value, not by field name.
import { parseJson } from '../http/json.js';

/** The event names of the spec's Events table that a delivery can carry (the domains AUTH and WEBHOOK are subscriptions only). */
export const KNOWN_EVENTS = ['AUTH.CREATED', 'AUTH.DELETED', 'WEBHOOK.CREATED', 'WEBHOOK.UPDATED'] as const;

export interface NamedEvent {
  /** As the spec spells it. */
  name: string;
  /** Where it was found, e.g. "event", "type", "meta.eventType". */
  path: string;
}

const MAX_NODES = 5_000;

/**
 * The event a payload names: a string member equal (case-insensitively) to one of `names`, the shallowest first.
 * Array elements are not considered, since a Webhook in the payload lists subscriptions that are event names too;
 * when two different names sit at the same depth, the payload is ambiguous and names none.
 */
export function eventNameOf(payload: unknown, names: readonly string[] = KNOWN_EVENTS): NamedEvent | undefined {
  const wanted = new Map(names.map((n) => [n.toUpperCase(), n]));
  let level: Array<[unknown, string]> = [[payload, '']];
  let nodes = 0;
  while (level.length > 0 && nodes < MAX_NODES) {
    const found = new Map<string, string>();
    const next: Array<[unknown, string]> = [];
    for (const [value, path] of level) {
      if (++nodes > MAX_NODES) break;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      for (const [k, child] of Object.entries(value as Record<string, unknown>)) {
        const at = path ? `${path}.${k}` : k;
        if (typeof child === 'string') {
          const name = wanted.get(child.trim().toUpperCase());
          if (name !== undefined && !found.has(name)) found.set(name, at);
        } else if (typeof child === 'object' && child !== null && !Array.isArray(child)) next.push([child, at]);
      }
    }
    if (found.size === 1) {
      const [name, path] = [...found][0]!;
      return { name, path };
    }
    if (found.size > 1) return undefined;
    level = next;
  }
  return undefined;
}

/** Whether `needle` occurs as a value (string, or number given as string) anywhere in the payload, arrays included. */
export function containsValue(payload: unknown, needle: string | number): boolean {
  const want = String(needle);
  const stack: unknown[] = [payload];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const v = stack.pop();
    if (typeof v === 'string' || typeof v === 'number') {
      if (String(v) === want) return true;
    } else if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) stack.push(...Object.values(v));
  }
  return false;
}

/** Every string or number under a member of this name, at any depth (bounded like containsValue). */
export function valuesNamed(payload: unknown, name: string): string[] {
  const found: string[] = [];
  const stack: unknown[] = [payload];
  let nodes = 0;
  while (stack.length > 0 && nodes++ < MAX_NODES) {
    const v = stack.pop();
    if (Array.isArray(v)) stack.push(...v);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, value] of Object.entries(v)) {
        if (key === name && (typeof value === 'string' || typeof value === 'number')) found.push(String(value));
        else stack.push(value);
      }
    }
  }
  return found;
}

/** Top-level member names of a payload object, for the report's record of the payload shape. */
export function topLevelFields(payload: unknown): string[] {
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? Object.keys(payload) : [];
}

const FORM = /^[^=&\s]+=[^&\s]*(?:&[^=&\s]+=[^&\s]*)*$/;

/**
 * A delivery body as the checks read it: JSON (through the depth guard: a payload nested 200,000 deep would overflow
 * whatever walks it later), or else form fields, when the Content-Type says so or the body has their shape, with JSON
 * text in a field read as JSON. `json` alone says whether the body was what the spec asks for.
 */
export function readPayload(body: Buffer, contentType: string | undefined): { json: boolean; payload: unknown } {
  const text = body.toString('utf8');
  const parsed = parseJson(text);
  if (parsed.ok) return { json: true, payload: parsed.value };
  const form = /^application\/x-www-form-urlencoded\b/i.test(contentType?.trim() ?? '') || FORM.test(text.trim());
  if (!form || text.trim() === '') return { json: false, payload: undefined };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text.trim())) {
    const inner = /^\s*[[{]/.test(value) ? parseJson(value) : undefined;
    fields[name] = inner?.ok ? inner.value : value;
  }
  return { json: false, payload: fields };
}
