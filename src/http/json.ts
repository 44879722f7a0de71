/** Parses a response body as JSON without throwing: bad input from a server is a finding, never a crash. */
export type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonResult {
  if (text.trim() === '') return { ok: false, error: 'the body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: `the body is not JSON (${(e as Error).message.split('\n')[0]})` };
  }
}
