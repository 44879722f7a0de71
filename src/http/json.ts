// Parses a response body as JSON without throwing: bad input from a server is a finding, never a crash.
//
// JSON.parse turns every number into an IEEE 754 double, so an integer beyond 2^53 (a 64-bit id, say) comes back
// rounded, and two different ids can compare equal. The parse here keeps what JSON.parse gives (so schemas and checks
// see ordinary numbers, as a JavaScript client of the server would) and, beside it, the exact literal of every
// integer outside the safe range: `unsafeNumbers` reports where they are, and `exactNumber`/`idKey` read the exact
// text back, so ids are compared as the server wrote them.

/** A number whose literal a double cannot hold exactly (an integer beyond ±(2^53 − 1)). */
export interface UnsafeNumber {
  /** Where it is, dotted (e.g. "data[3].transactionId"); "(root)" for a bare number. */
  path: string;
  /** The literal as the server wrote it. */
  text: string;
  /** What JSON.parse (and so a JavaScript client) makes of it. */
  parsed: number;
}

export type JsonResult = { ok: true; value: unknown; unsafeNumbers: UnsafeNumber[] } | { ok: false; error: string };

type Segment = string | number;

/** Exact literals per container and member, for the numbers JSON.parse rounded (weak: they live as long as the value). */
const exactLiterals = new WeakMap<object, Map<Segment, string>>();

/**
 * Deeper nesting is refused before parsing. No body of this interface nests more than a handful of levels; a hostile
 * one nested 200,000 deep parses (V8's parser does not recurse) but would overflow the stack of anything that walks it
 * afterwards: schema validation, JSON.stringify, a report.
 */
export const MAX_JSON_DEPTH = 256;

export function parseJson(text: string): JsonResult {
  if (text.trim() === '') return { ok: false, error: 'the body is empty' };
  const depth = nestingBeyond(text, MAX_JSON_DEPTH);
  if (depth !== undefined)
    return {
      ok: false,
      error: `the body is not usable JSON: nesting deeper than ${MAX_JSON_DEPTH} levels (at offset ${depth})`,
    };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (e) {
    return { ok: false, error: `the body is not JSON (${(e as Error).message.split('\n')[0]})` };
  }
  return { ok: true, value, unsafeNumbers: MAY_HOLD_UNSAFE.test(text) ? recordUnsafe(text, value) : [] };
}

/** The offset where brackets outside strings first nest deeper than `max`, or undefined. Linear, no recursion. */
function nestingBeyond(text: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return undefined;
}

/**
 * The exact literal of `holder[key]` when it is a number JSON.parse could not hold (from a value parseJson returned),
 * otherwise undefined.
 */
export function exactNumber(holder: unknown, key: Segment): string | undefined {
  if (typeof holder !== 'object' || holder === null) return undefined;
  return exactLiterals.get(holder)?.get(Array.isArray(holder) ? Number(key) : key);
}

/**
 * A key that identifies the value of `holder[key]` exactly, for comparing ids: a number as its canonical decimal
 * (the literal the server wrote when a double would have rounded it), a string quoted (so the string "7" is not
 * the number 7). Undefined when the member is absent or neither a number nor a string.
 */
export function idKey(holder: unknown, key: Segment): string | undefined {
  if (typeof holder !== 'object' || holder === null) return undefined;
  const value = (holder as Record<Segment, unknown>)[key];
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'number') return undefined;
  const literal = exactNumber(holder, key);
  if (literal !== undefined) return canonicalInteger(literal) ?? literal;
  return Number.isInteger(value) ? BigInt(value).toString() : String(value);
}

/** True when `holder[key]` is a number whose exact value a double does not hold. */
export function isUnsafeNumber(holder: unknown, key: Segment): boolean {
  return exactNumber(holder, key) !== undefined;
}

// ---- the scan ----------------------------------------------------------------------------------------------------

// 15 digits always fit a double exactly; MAX_SAFE_INTEGER has 16. An exponent can make a short literal a large integer.
const MAY_HOLD_UNSAFE = /[0-9]{16}|[0-9][eE][+-]?[0-9]/;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Exponents beyond this are not expanded into digits (a hostile "1e999999999" must not allocate a huge string). */
const MAX_EXPANDED_EXPONENT = 400;

interface Frame {
  kind: 'object' | 'array';
  /** The next member name (objects) or index (arrays). */
  key: Segment | undefined;
  expectKey: boolean;
}

interface Found {
  segments: Segment[];
  text: string;
}

/**
 * Walks the (already valid) JSON text with an explicit stack, so no nesting depth can overflow the call stack, and
 * records every number literal that is an integer beyond the safe range. Then registers each against the value.
 */
function recordUnsafe(text: string, root: unknown): UnsafeNumber[] {
  const stack: Frame[] = [];
  const found: Found[] = [];
  const pathHere = (): Segment[] => stack.map((f) => f.key!).filter((k) => k !== undefined);
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push(
        c === 0x7b ? { kind: 'object', key: undefined, expectKey: true } : { kind: 'array', key: 0, expectKey: false },
      );
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x2c /* , */) {
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.key = (top.key as number) + 1;
      i++;
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        top.key = JSON.parse(text.slice(i, end)) as string;
        top.expectKey = false;
      }
      i = end;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      const literal = m ? m[0] : text[i]!;
      if (m && isUnsafeLiteral(literal)) {
        // An array's frame holds the index of the element itself; an object's, the member name.
        found.push({ segments: stack.length === 0 ? [] : pathHere(), text: literal });
      }
      i += literal.length;
    } else {
      i++;
    }
  }
  const out: UnsafeNumber[] = [];
  for (const f of found) {
    const located = locate(root, f.segments);
    if (!located) continue;
    const { holder, key, value } = located;
    // A repeated member name keeps only its last value in JSON.parse: register only literals that are what is there.
    if (typeof value !== 'number' || Number(f.text) !== value) continue;
    if (holder !== undefined) {
      let map = exactLiterals.get(holder);
      if (!map) exactLiterals.set(holder, (map = new Map()));
      map.set(key!, f.text);
    }
    out.push({ path: pathString(f.segments), text: f.text, parsed: value });
  }
  return out;
}

/** Index just past the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return text.length;
}

function isUnsafeLiteral(literal: string): boolean {
  const canonical = canonicalInteger(literal);
  if (canonical === undefined) {
    // Not an integer, or an exponent too large to expand: beyond the range when its value is an integer there, or
    // so large that a double overflows to Infinity.
    const v = Number(literal);
    return !Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v));
  }
  const big = BigInt(canonical);
  return big > MAX_SAFE || big < -MAX_SAFE;
}

/**
 * The exact decimal integer a JSON number literal denotes ("1.5e3" → "1500", "-0" → "0"), or undefined when it is
 * not an integer (or its exponent is too large to expand).
 */
export function canonicalInteger(literal: string): string | undefined {
  const m = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(literal);
  if (!m) return undefined;
  const [, sign, int, frac = '', expText = '0'] = m;
  const exp = Number(expText) - frac.length;
  if (!Number.isFinite(exp) || exp > MAX_EXPANDED_EXPONENT) return undefined;
  let digits = `${int}${frac}`;
  if (exp >= 0) digits += '0'.repeat(exp);
  else {
    const cut = digits.length + exp;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[1-9]/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  }
  digits = digits.replace(/^0+(?=[0-9])/, '');
  return digits === '0' ? '0' : `${sign}${digits}`;
}

function locate(
  root: unknown,
  segments: Segment[],
): { holder: object | undefined; key: Segment | undefined; value: unknown } | undefined {
  if (segments.length === 0) return { holder: undefined, key: undefined, value: root };
  let holder: unknown = root;
  for (let s = 0; s < segments.length - 1; s++) {
    if (typeof holder !== 'object' || holder === null) return undefined;
    holder = (holder as Record<Segment, unknown>)[segments[s]!];
  }
  if (typeof holder !== 'object' || holder === null) return undefined;
  const key = segments[segments.length - 1]!;
  return { holder, key, value: (holder as Record<Segment, unknown>)[key] };
}

function pathString(segments: Segment[]): string {
  if (segments.length === 0) return '(root)';
  return segments
    .map((s) =>
      typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`,
    )
    .join('')
    .replace(/^\./, '');
}
