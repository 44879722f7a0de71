// The judge pack (issue 30): the server checks that can judge observed traffic run their `observe` over it and send
// nothing; those that cannot are listed as not exercised. resources.responses.json-type judges observed answers with
// the rule that judges the answers to its own requests, and cites the observed exchange.
import { describe, expect, it } from 'vitest';
import { pack } from '../../../suites/index.js';
import { judgePack } from '../../../suites/kit/index.js';
import { NOT_EXERCISED } from '../../../suites/kit/judge.js';
import { runChecks } from '../../../src/engine/index.js';
import { Redactor } from '../../../src/http/redact.js';
import type { TrafficExchange } from '../../../src/traffic/exchange.js';
import { madeUpTarget } from '../../helpers/made-up-pack.js';

const BASE = 'https://127.0.0.1:9/v1';
const bytes = (text: string) => new TextEncoder().encode(text);

function answered(index: number, path: string, status: number, contentType: string | undefined, body: string) {
  const headers: Array<[string, string]> = contentType ? [['Content-Type', contentType]] : [];
  return {
    index,
    request: {
      method: 'GET',
      url: `${BASE}${path}`,
      headers: [['Authorization', 'Bearer secret-token-1234']],
      body: new Uint8Array(),
      bodyState: 'empty',
    },
    response: { status, headers, body: bytes(body), bodyState: 'captured' },
  } satisfies TrafficExchange;
}

async function judge(traffic: TrafficExchange[], id = 'resources.responses.json-type') {
  const judged = judgePack(pack, traffic, new Redactor());
  // The made-up target's base URL, http://127.0.0.1:9/v1: nothing listens there, and a judge sends nothing.
  const result = await runChecks({ pack: judged.pack, target: { ...madeUpTarget, baseUrl: BASE } });
  return { judged, result, check: result.checks.find((c) => c.id === id) };
}

describe('the judge pack', () => {
  it('judges with the checks that can judge traffic, and reports every other check skipped as not exercised', async () => {
    const { judged, result } = await judge([answered(0, '/instruments', 200, 'application/json', '{"data":[]}')]);
    const all = pack.suites.flatMap((s) => s.checks.map((c) => c.id));
    expect(result.checks.map((c) => c.id)).toEqual(all);
    const skipped = result.checks.filter((c) => c.skipReason === NOT_EXERCISED).map((c) => c.id);
    expect(skipped).toEqual(judged.notExercised);
    expect(skipped).not.toContain('resources.responses.json-type');
    expect(skipped.length).toBe(all.length - pack.suites.flatMap((s) => s.checks).filter((c) => c.observe).length);
    // What the skipped checks cite counts as not exercised: the verdict never claims more than the traffic showed.
    expect(result.verdict.status).toBe('INCOMPLETE');
  });

  it('passes JSON answers labelled application/json or a +json type, with a charset', async () => {
    const { check } = await judge([
      answered(0, '/instruments', 200, 'application/json; charset=utf-8', '{"data":[]}'),
      answered(1, '/customers/9', 404, 'application/problem+json', '{"code":"404","message":"Not Found"}'),
      answered(2, '/webhooks/test', 204, undefined, ''),
    ]);
    expect(check?.outcome).toBe('pass');
    expect(check?.exchanges).toEqual([]);
  });

  it('warns on a JSON answer labelled otherwise, citing the observed exchange, redacted', async () => {
    const { check, result } = await judge([
      answered(0, '/instruments', 200, 'application/json', '{"data":[]}'),
      answered(4, '/customers/9', 404, 'text/plain', '{"code":"404","message":"Not Found"}'),
    ]);
    expect(check?.outcome).toBe('warn');
    expect(check?.finding?.message).toBe(
      '1 of 2 JSON answer(s) are labelled otherwise: GET /v1/customers/9 → 404 text/plain',
    );
    expect(check?.exchanges.map((e) => [e.seq, e.checkId, e.request.headers])).toEqual([
      [5, 'observed', [['Authorization', 'Bearer [redacted]']]],
    ]);
    expect(result.totals.failed).toBe(0);
  });

  it('skips when the traffic holds no answer with a body, and never sends', async () => {
    const { check } = await judge([answered(0, '/webhooks/test', 204, undefined, '')]);
    expect(check?.outcome).toBe('skip');
    expect(check?.skipReason).toBe('the traffic holds no answer with a body');
  });

  it('warns on an integer beyond 2^53 − 1 in a resource read, and leaves out answers outside the base URL', async () => {
    const big = '{"data":{"customerId":9007199254740993},"code":"200","message":"Success"}';
    const clean = await judge(
      [
        answered(0, '/customers/1042', 200, 'application/json', '{"data":{"customerId":1042}}'),
        {
          ...answered(1, '/x', 200, 'application/json', big),
          request: { ...answered(1, '', 200, undefined, '').request, url: 'https://127.0.0.1:9/v2/customers/1' },
        },
      ],
      'resources.numbers.safe-integers',
    );
    expect(clean.check?.outcome).toBe('pass');
    expect(clean.check?.observations).toEqual(['1 responses scanned, 0 unsafe integers']);
    const broken = await judge(
      [answered(3, '/customers/1042', 200, 'application/json', big)],
      'resources.numbers.safe-integers',
    );
    expect(broken.check?.outcome).toBe('warn');
    expect(broken.check?.finding?.message).toBe(
      '1 integer(s) beyond 2^53 − 1 in /v1/customers/1042: data.customerId = 9007199254740993 (a double reads 9007199254740992)',
    );
    expect(broken.check?.exchanges.map((e) => e.seq)).toEqual([4]);
  });
});
