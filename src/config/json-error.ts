// Where a config (or option) file's JSON is broken, as a line and column with the reason, for a one-line error a
// person can act on; JSON.parse alone says only "Unexpected token".
import { ConfigError } from '../errors.js';

export function parseJson(text: string, file: string): unknown {
  // Editors on Windows may save a byte order mark, which JSON.parse rejects.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const found = locateJsonError(body);
    if (!found) throw new ConfigError(`config: ${file} is not valid JSON: check its syntax`);
    const before = body.slice(0, found.offset);
    const line = before.split('\n').length;
    const column = found.offset - before.lastIndexOf('\n');
    throw new ConfigError(`config: ${file}:${line}:${column} is not valid JSON: ${found.reason}`);
  }
}

class JsonStop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/** Where and why a text is not JSON (RFC 8259); undefined when it is, or when nesting is too deep to scan. */
export function locateJsonError(text: string): { offset: number; reason: string } | undefined {
  const scan = new JsonScanner(text);
  try {
    scan.value();
    scan.space();
    if (scan.i < text.length) scan.stop('unexpected text after the end of the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof JsonStop) return { offset: err.offset, reason: err.reason };
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** What a character that starts no JSON value most likely is, said for the person who typed it. */
const NOT_A_VALUE = new Map([
  ['/', 'comments are not allowed in JSON'],
  ["'", 'strings must use double quotes'],
]);

/** What is wrong where an object's members or an array's items do not go on or end as JSON says. */
const CLOSING = {
  '}': {
    trailing: 'a trailing comma before } (JSON allows none)',
    separator: "expected ',' or '}' after a property value",
  },
  ']': {
    trailing: 'a trailing comma before ] (JSON allows none)',
    separator: "expected ',' or ']' after an array item",
  },
};

/** Reads a text as JSON from its start, one piece at `i` per method; the first thing wrong stops it (JsonStop). */
class JsonScanner {
  i = 0;

  constructor(private readonly text: string) {}

  stop(reason: string, at = this.i): never {
    throw new JsonStop(at, reason);
  }

  space(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  value(): void {
    this.space();
    const c = this.text[this.i];
    if (c === undefined) return this.stop('the text ends where a value is expected');
    if (c === '{' || c === '[') return this.members(c === '{' ? '}' : ']');
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    if (this.literal()) return;
    this.stop(NOT_A_VALUE.get(c) ?? 'unexpected character where a value is expected (a string needs double quotes)');
  }

  /** The members of an object or the items of an array, from its opening bracket to `close`. */
  private members(close: '}' | ']'): void {
    const { text } = this;
    const reasons = CLOSING[close];
    this.i++;
    this.space();
    if (text[this.i] === close) {
      this.i++;
      return;
    }
    for (;;) {
      this.space();
      if (text[this.i] === close) this.stop(reasons.trailing);
      // Called here, not through a method per container: each frame a level adds lowers the depth scanned before a RangeError.
      if (close === '}') this.property();
      else this.value();
      this.space();
      if (text[this.i] === close) {
        this.i++;
        return;
      }
      if (text[this.i] !== ',') this.stop(reasons.separator);
      this.i++;
    }
  }

  /** One "name": value pair of an object. */
  private property(): void {
    const { text } = this;
    if (text[this.i] !== '"')
      this.stop(
        text[this.i] === '/' ? 'comments are not allowed in JSON' : 'expected a property name in double quotes',
      );
    this.string();
    this.space();
    if (text[this.i] !== ':') this.stop("expected ':' after the property name");
    this.i++;
    this.value();
  }

  private string(): void {
    const start = this.i++;
    for (;;) {
      const c = this.text[this.i];
      if (c === undefined) this.stop('a string is not closed', start);
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\') this.escape();
      else if (c!.charCodeAt(0) < 0x20)
        this.stop('a line break or control character inside a string (write \\n for a line break)');
      else this.i++;
    }
  }

  /** One backslash escape inside a string. */
  private escape(): void {
    const e = this.text[this.i + 1];
    if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
    else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(this.text.slice(this.i + 2, this.i + 6))) this.i += 6;
    else this.stop('invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
  }

  private number(): void {
    const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    number.lastIndex = this.i;
    if (!number.exec(this.text)) this.stop('invalid number');
    this.i = number.lastIndex;
  }

  /** true, false or null, read when one starts here. */
  private literal(): boolean {
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.i)) {
        this.i += literal.length;
        return true;
      }
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Schema errors → one line. The hints are keyed by the field's place in a target ("baseUrl", "fixtures.*", …).

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
