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
  let i = 0;
  const stop = (reason: string, at = i): never => {
    throw new JsonStop(at, reason);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): void => {
    const start = i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) stop('a string is not closed', start);
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else if (e === 'u' && /^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else stop('invalid escape in a string (valid: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
      } else if (c!.charCodeAt(0) < 0x20) {
        stop('a line break or control character inside a string (write \\n for a line break)');
      } else {
        i++;
      }
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === undefined) return stop('the text ends where a value is expected');
    if (c === '{') {
      i++;
      space();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === '}') stop('a trailing comma before } (JSON allows none)');
        if (text[i] !== '"')
          stop(text[i] === '/' ? 'comments are not allowed in JSON' : 'expected a property name in double quotes');
        string();
        space();
        if (text[i] !== ':') stop("expected ':' after the property name");
        i++;
        value();
        space();
        if (text[i] === '}') {
          i++;
          return;
        }
        if (text[i] !== ',') stop("expected ',' or '}' after a property value");
        i++;
      }
    }
    if (c === '[') {
      i++;
      space();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        space();
        if (text[i] === ']') stop('a trailing comma before ] (JSON allows none)');
        value();
        space();
        if (text[i] === ']') {
          i++;
          return;
        }
        if (text[i] !== ',') stop("expected ',' or ']' after an array item");
        i++;
      }
    }
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const number = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
      number.lastIndex = i;
      if (!number.exec(text)) stop('invalid number');
      i = number.lastIndex;
      return;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return;
      }
    }
    if (c === '/') stop('comments are not allowed in JSON');
    if (c === "'") stop('strings must use double quotes');
    stop('unexpected character where a value is expected (a string needs double quotes)');
  };
  try {
    value();
    space();
    if (i < text.length) stop('unexpected text after the end of the JSON value');
    return undefined;
  } catch (err) {
    if (err instanceof JsonStop) return { offset: err.offset, reason: err.reason };
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Schema errors → one line. The hints are keyed by the field's place in a target ("baseUrl", "fixtures.*", …).

/** A plain object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
