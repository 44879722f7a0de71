// Method + path-pattern matching. Patterns are literal segments and `:name` parameters; no wildcards, no optional
// segments, no trailing-slash folding, so a path either is an endpoint of the spec or is a 404.

export type RouteMatch<T> =
  | { kind: 'found'; value: T; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

interface Entry<T> {
  method: string;
  segments: string[];
  value: T;
}

function split(path: string): string[] {
  return path.split('/').slice(1);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape stays raw: the parameter's own validation then rejects it with a 400 that names it.
    return segment;
  }
}

export class Router<T> {
  private readonly entries: Entry<T>[] = [];

  add(method: string, pattern: string, value: T): this {
    if (!pattern.startsWith('/')) throw new Error(`route pattern must start with "/": ${pattern}`);
    const m = method.toUpperCase();
    if (this.entries.some((e) => e.method === m && e.segments.join('/') === split(pattern).join('/'))) {
      throw new Error(`route ${m} ${pattern} is declared twice`);
    }
    this.entries.push({ method: m, segments: split(pattern), value });
    return this;
  }

  match(method: string, path: string): RouteMatch<T> {
    const parts = split(path);
    const allow: string[] = [];
    for (const entry of this.entries) {
      const params = matchSegments(entry.segments, parts);
      if (params === undefined) continue;
      if (entry.method === method.toUpperCase()) return { kind: 'found', value: entry.value, params };
      if (!allow.includes(entry.method)) allow.push(entry.method);
    }
    return allow.length > 0 ? { kind: 'method-not-allowed', allow } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      if (v === '') return undefined;
      params[p.slice(1)] = decode(v);
    } else if (p !== v) {
      return undefined;
    }
  }
  return params;
}
