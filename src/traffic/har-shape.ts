// Reading one HAR entry's members with the path each one sits at, so that a wrong shape is refused in one line that
// names the entry and the member ("entry 12: response.headers is not a list"), never a TypeError from deep inside.
import { HarError } from '../errors.js';

type Json = Record<string, unknown>;

/** One entry's members, read with the entry index for the error line. */
export class EntryReader {
  constructor(readonly index: number) {}

  fail(path: string, what: string): never {
    throw new HarError(`entry ${this.index}: ${path} ${what}; fix or remove that entry, or save the HAR again`);
  }

  object(value: unknown, path: string): Json {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'is not an object');
    return value as Json;
  }

  /** An optional object: undefined when absent or null (some exporters write null for what they do not have). */
  optionalObject(value: unknown, path: string): Json | undefined {
    return value === undefined || value === null ? undefined : this.object(value, path);
  }

  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, 'is not a string');
    return value;
  }

  optionalString(value: unknown, path: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, path);
  }

  /** An optional number; -1 is HAR's "unknown" and reads as undefined, like absence. */
  optionalNumber(value: unknown, path: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'is not a number');
    return value < 0 ? undefined : value;
  }

  list(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'is not a list');
    return value;
  }

  /** A headers (or params) list: {name, value} objects, in file order. */
  nameValues(value: unknown, path: string): Array<[string, string]> {
    return this.list(value ?? [], path).map((item, i) => {
      const pair = this.object(item, `${path}[${i}]`);
      return [this.string(pair.name, `${path}[${i}].name`), this.string(pair.value ?? '', `${path}[${i}].value`)];
    });
  }
}
