import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarError } from '../../src/errors.js';
import { readHar } from '../../src/traffic/har.js';
import { harText } from '../../src/report/har.js';
import { sampleRunResult } from '../helpers/run-result.js';

const chrome = readFileSync(join(import.meta.dirname, '../fixtures/har/chrome.har'), 'utf8');

/** The one error line readHar gives for the text, or a failure naming what else happened. */
function refusal(text: string): string {
  try {
    readHar(text, 'x.har');
  } catch (err) {
    expect(err).toBeInstanceOf(HarError);
    expect((err as HarError).code).toBe('CONFORMANCE_ERR_HAR');
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`readHar took ${JSON.stringify(text.slice(0, 60))}`);
}

/** The chrome fixture with one change to its first entry. */
function withEntry(change: (entry: Record<string, any>) => void): string {
  const har = JSON.parse(chrome);
  change(har.log.entries[0]);
  return JSON.stringify(har, null, 1);
}

describe('readHar refuses bad input with one HarError line', () => {
  it('says a HAR cut at any point is cut short, or names where it is not JSON (every cut position)', () => {
    const compact = JSON.stringify(JSON.parse(chrome));
    for (const text of [chrome, compact]) {
      for (let cut = 1; cut < text.length - 1; cut++) {
        const message = refusal(text.slice(0, cut));
        expect(message).toMatch(/^x\.har is (cut short|empty|not JSON)/);
      }
    }
  });

  it("says our own report's HAR (compact, one line) cut at every 13th character is cut short, with the column", () => {
    const text = harText(sampleRunResult()).trimEnd();
    for (let cut = 1; cut < text.length; cut += 13) {
      expect(refusal(text.slice(0, cut)), `cut at ${cut}`).toMatch(/^x\.har is cut short: .*\(line 1, column \d+\)/);
    }
  });

  it('says a gateway error page saved in place of the HAR is not JSON, at line 1, column 1', () => {
    expect(refusal('<html>502 Bad Gateway</html>')).toMatch(/^x\.har is not JSON: .* at line 1, column 1;/);
  });

  it('gives line and column of a syntax error, and "cut short" for a truncated file', () => {
    expect(refusal('{\n  "log": {\n    "entries": [}\n}')).toMatch(/^x\.har is not JSON: .* at line 3, column 17;/);
    expect(refusal('{"log": {"entries": [{"request": {"url": "https://a.example/')).toBe(
      'x.har is cut short: its JSON ends inside a value (line 1, column 61); the file was truncated while it was written or copied: save or copy the HAR again',
    );
  });

  it('refuses an empty file, a JSON array, and a file without log.entries', () => {
    expect(refusal('')).toMatch(/^x\.har is empty/);
    expect(refusal(' \n')).toMatch(/^x\.har is empty/);
    for (const text of ['[]', '[{"log":{"entries":[]}}]', '{}', '{"log":{}}', '{"log":{"entries":{}}}', 'null', '42']) {
      expect(refusal(text)).toMatch(/^x\.har is not a HAR: it has no log\.entries list;/);
    }
  });

  const wrongShapes: Array<[string, (e: Record<string, any>) => void]> = [
    ['entry 0: request is not an object', (e) => (e.request = 'GET /')],
    ['entry 0: request.method is not a string', (e) => (e.request.method = 7)],
    ['entry 0: request.url is not a string', (e) => delete e.request.url],
    ['entry 0: request.headers is not a list', (e) => (e.request.headers = {})],
    ['entry 0: request.headers[4] is not an object', (e) => (e.request.headers[4] = 'accept: */*')],
    ['entry 0: request.headers[4].name is not a string', (e) => (e.request.headers[4].name = null)],
    ['entry 0: request.headers[4].value is not a string', (e) => (e.request.headers[4].value = 3)],
    ['entry 0: request.httpVersion is not a string', (e) => (e.request.httpVersion = 2)],
    ['entry 0: request.bodySize is not a number', (e) => (e.request.bodySize = '14')],
    ['entry 0: request.postData is not an object', (e) => (e.request.postData = 'x')],
    ['entry 0: request.postData.text is not a string', (e) => (e.request.postData.text = {})],
    [
      'entry 0: request.postData.params is not a list',
      (e) => (delete e.request.postData.text, (e.request.postData.params = 1)),
    ],
    ['entry 0: response is not an object', (e) => (e.response = [])],
    ['entry 0: response.status is not a number', (e) => (e.response.status = '201')],
    ['entry 0: response.status 1.5 is not an HTTP status', (e) => (e.response.status = 1.5)],
    ['entry 0: response.headers is not a list', (e) => (e.response.headers = 'x')],
    ['entry 0: response.content is not an object', (e) => (e.response.content = 'x')],
    ['entry 0: response.content.size is not a number', (e) => (e.response.content.size = 'big')],
    ['entry 0: response.content.text is not a string', (e) => (e.response.content.text = 5)],
    ['entry 0: response.content.encoding is "gzip", not "base64"', (e) => (e.response.content.encoding = 'gzip')],
    ['entry 0: response.content.text is not base64', (e) => (e.response.content.text = '@@@')],
    ['entry 0: startedDateTime is not a string', (e) => (e.startedDateTime = 0)],
    ['entry 0: time is not a number', (e) => (e.time = 'fast')],
    ['entry 0: request.url "/v1/orders" is not an absolute http(s) URL', (e) => (e.request.url = '/v1/orders')],
  ];

  it.each(wrongShapes)('%s', (expected, change) => {
    const message = refusal(withEntry(change));
    expect(message.startsWith(expected)).toBe(true);
    expect(message).toMatch(/; fix or remove that entry, or save the HAR again$/);
  });

  it('names the entry index of an entry that is not an object', () => {
    const har = JSON.parse(chrome);
    har.log.entries[2] = 'oops';
    expect(refusal(JSON.stringify(har))).toMatch(/^entry 2: the entry is not an object;/);
  });

  it('reads a 50 MB base64 body whole, and a UTF-8 byte order mark (Fiddler) is no error', () => {
    const big = Buffer.alloc(50 * 1024 * 1024, 0xab);
    const text = withEntry((e) => {
      e.response.content = {
        size: big.byteLength,
        mimeType: 'application/octet-stream',
        text: big.toString('base64'),
        encoding: 'base64',
      };
    });
    const body = readHar(`\ufeff${text}`).exchanges[0]?.response?.body;
    expect(body?.byteLength).toBe(big.byteLength);
    expect(Buffer.from(body!).equals(big)).toBe(true);
  });
});

describe('readHar never throws anything but HarError', () => {
  /** Every member path of a JSON value, objects and lists included. */
  function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
    if (typeof value !== 'object' || value === null) return [at];
    const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    return [at, ...keys.flatMap((k) => paths((value as Record<string | number, unknown>)[k], [...at, k]))];
  }

  it('with each member of the Chrome and mitmproxy files replaced by each JSON type in turn', () => {
    let refused = 0;
    for (const text of [chrome, readFileSync(join(import.meta.dirname, '../fixtures/har/mitmproxy.har'), 'utf8')]) {
      for (const path of paths(JSON.parse(text)).slice(1)) {
        for (const replacement of [null, -1, 1.5, 'x', '', true, [], {}, [{}]]) {
          const har = JSON.parse(text);
          const parent = path.slice(0, -1).reduce((v, k) => v[k], har);
          parent[path.at(-1)!] = replacement;
          try {
            readHar(JSON.stringify(har));
          } catch (err) {
            expect(err, `${path.join('.')} = ${JSON.stringify(replacement)}`).toBeInstanceOf(HarError);
            expect((err as Error).message).not.toContain('\n');
            refused++;
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
  });
});
