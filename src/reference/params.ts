// Path and query parameter parsing. Every failure is a 400 whose message names the parameter and the rule.
import { badRequest } from './respond.js';

/** Canonical decimal integers only: "1042", "-3", "0". Not "01042", "1e3", "1042.0", " 1042" or beyond 2^53. */
const INTEGER = /^-?(0|[1-9][0-9]*)$/;

export function parseInteger(text: string, name: string): number {
  if (!INTEGER.test(text)) throw badRequest(`${name} must be an integer`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw badRequest(`${name} is out of range`);
  return value;
}

/** A query parameter given at most once; a repeated one is ambiguous, so rejected rather than guessed. */
export function optionalQuery(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw badRequest(`${name} is given more than once`);
  return values[0];
}

export function requireQuery(query: URLSearchParams, name: string): string {
  const value = optionalQuery(query, name);
  if (value === undefined || value === '') throw badRequest(`${name} is required`);
  return value;
}

export function queryInteger(query: URLSearchParams, name: string): number {
  return parseInteger(requireQuery(query, name), name);
}

export function pathInteger(params: Readonly<Record<string, string>>, name: string): number {
  const value = params[name];
  if (value === undefined) throw new Error(`route has no :${name} parameter`);
  return parseInteger(value, name);
}
