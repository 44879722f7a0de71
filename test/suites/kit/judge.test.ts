// The judge pack (issue 30): the server checks that can judge observed traffic run their `observe` over it and send
// nothing; those that cannot are listed as not exercised. resources.responses.json-type judges observed answers with
// the rule that judges the answers to its own requests, and cites the observed exchange.
import { generateKeyPairSync } from 'node:crypto';
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

/** Paging meta of the first of two pages of three items, complete and consistent. */
const PAGE_META = {
  previousPage: 0,
  currentPage: 0,
  nextPage: 1,
  limit: 2,
  currentCount: 2,
  totalCount: 3,
  sort: 'DESC',
};
/** A complete empty list page. */
const EMPTY_PAGE = JSON.stringify({
  data: [],
  meta: { ...PAGE_META, nextPage: 0, limit: 100, currentCount: 0, totalCount: 0 },
});

function posted(index: number, path: string, status: number, body: string) {
  const got = answered(index, path, status, 'application/json', body);
  return { ...got, request: { ...got.request, method: 'POST' } } satisfies TrafficExchange;
}

async function judge(traffic: TrafficExchange[], id = 'resources.responses.json-type') {
  const judged = judgePack(pack, traffic, new Redactor());
  // The made-up target's base URL, http://127.0.0.1:9/v1: nothing listens there, and a judge sends nothing.
  const result = await runChecks({ pack: judged.pack, target: { ...madeUpTarget, baseUrl: BASE } });
  return { judged, result, check: result.checks.find((c) => c.id === id) };
}

describe('the judge pack', () => {
  it('judges with the checks that can judge traffic, and reports every other check skipped as not exercised', async () => {
    const { judged, result } = await judge([answered(0, '/instruments', 200, 'application/json', EMPTY_PAGE)]);
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
    // A complete empty page: nothing but the label is wrong in this traffic.
    const { check, result } = await judge([
      answered(0, '/instruments', 200, 'application/json', EMPTY_PAGE),
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

  it('fails a 4xx answer without the error body {code, message}, and takes an OAuth 2.0 error on the token endpoint', async () => {
    const id = 'resources.errors.body';
    const clean = await judge(
      [
        answered(0, '/customers/9', 404, 'application/json', '{"code":"404","message":"Not Found"}'),
        answered(1, '/oauth/token', 401, 'application/json', '{"error":"invalid_client"}'),
        answered(2, '/instruments', 429, 'text/plain', 'slow down'),
        answered(3, '/instruments', 200, 'application/json', '{"data":[]}'),
      ],
      id,
    );
    expect(clean.check?.outcome).toBe('pass');
    expect(clean.check?.observations).toContain(
      '#2 GET /oauth/token refuses with an OAuth 2.0 error body (RFC 6749 §5.2): accepted on the token endpoints',
    );
    const broken = await judge(
      [
        answered(0, '/customers/9', 404, 'application/json', '{"code":"404","message":"Not Found"}'),
        answered(5, '/accounts', 400, 'text/html', '<h1>Bad Request</h1>'),
      ],
      id,
    );
    expect(broken.check?.outcome).toBe('fail');
    expect(broken.check?.finding?.message).toBe(
      '1 of 2 rejection(s) came without the error body {code, message}: #6 GET /accounts (400)',
    );
    expect(broken.check?.finding?.requirements).toContain('REQ-HDR-01');
    expect(broken.check?.exchanges.map((e) => e.seq)).toEqual([6]);
    const none = await judge([answered(0, '/instruments', 429, 'text/plain', 'slow down')], id);
    expect(none.check?.outcome).toBe('skip');
    expect(none.check?.skipReason).toBe('the traffic holds no 4xx answer other than 429');
  });

  it('judges the message text of 401s outside the token endpoints and of 404s to reads of an integer id', async () => {
    const id = 'resources.errors.message-text';
    const error = (message: string) => JSON.stringify({ code: 'x', message });
    const clean = await judge(
      [
        answered(0, '/customers/9', 404, 'application/json', error('Not Found (the specified resource was not found)')),
        answered(1, '/instruments', 401, 'application/json', error('Unauthorized')),
        answered(2, '/oauth/token', 401, 'application/json', error('invalid client')),
        answered(3, '/webhooks', 404, 'application/json', error('no webhook configured')),
        answered(4, '/nowhere', 404, 'application/json', error('no such route')),
        // A malformed id or query refused with 404 (validation-status=404, an open reading) has words of its own.
        answered(5, '/customers/not-an-id', 404, 'application/json', error('customerId must be an integer')),
        answered(6, '/accounts?customerId=abc', 404, 'application/json', error('customerId must be an integer')),
      ],
      id,
    );
    expect(clean.check?.outcome).toBe('pass');
    expect(clean.check?.observations).toContain(
      'message texts: 404 "Not Found (the specified resource was not found)", 401 "Unauthorized"',
    );
    const broken = await judge(
      [
        answered(0, '/accounts/7', 404, 'application/json', error('Account missing')),
        answered(1, '/accounts', 401, 'application/json', '<html>'),
      ],
      id,
    );
    expect(broken.check?.outcome).toBe('fail');
    expect(broken.check?.finding?.message).toBe(
      '1 of 1 error message(s) do not say what the Errors table lists: #1 GET /accounts/7: 404 "Account missing"',
    );
    expect(broken.check?.finding?.requirements).toEqual(['REQ-ERR-03']);
    expect(broken.check?.exchanges.map((e) => e.seq)).toEqual([1]);
    expect(broken.check?.observations).toContain(
      'also seen here, judged by resources.errors.body: #2 GET /accounts answered 401 without the error body',
    );
  });

  it('judges the timestamps of every record of resource and list answers against the one unit they count', async () => {
    const id = 'resources.timestamps.unix';
    const env = (data: unknown) => JSON.stringify({ data, code: '200', message: 'Success' });
    const customer = answered(
      0,
      '/customers/9',
      200,
      'application/json',
      env({ createdAt: 1700000000, updatedAt: 1700000100 }),
    );
    const clean = await judge(
      [
        customer,
        answered(1, '/accounts', 200, 'application/json', env([{ accountId: 1, createdAt: 1700000200 }])),
        answered(2, '/webhooks', 200, 'application/json', env({ createdAt: 'not judged here' })),
      ],
      id,
    );
    expect(clean.check?.outcome).toBe('pass');
    expect(clean.check?.observations.at(-1)).toBe('2 record(s) read; updatedAt >= createdAt on 1 of 1');
    const broken = await judge(
      [
        customer,
        answered(
          1,
          '/transactions',
          200,
          'application/json',
          env([
            { transactionId: 1, createdAt: 1700000200 },
            { transactionId: 2, createdAt: 1700000300000 },
          ]),
        ),
      ],
      id,
    );
    expect(broken.check?.outcome).toBe('fail');
    expect(broken.check?.finding?.message).toBe(
      "1 timestamp(s) count milliseconds, while the server's other 3 count seconds: #2 GET /transactions: data[1].createdAt = 1700000300000",
    );
    expect(broken.check?.finding?.requirements).toEqual(['REQ-TXN-08', 'REQ-TXN-09']);
    expect(broken.check?.exchanges.map((e) => e.seq)).toEqual([2]);
  });

  it('judges the tokenType and scope of every token record the traffic holds', async () => {
    const record = (fields: object) =>
      JSON.stringify({ data: { token: 'tok-0123456789abcdef', ...fields }, code: '200', message: 'Success' });
    const good = posted(0, '/oauth/token', 200, record({ tokenType: 'Bearer', scope: 'read write' }));
    const clean = await judge([good], 'auth.token.type-bearer');
    expect(clean.check?.outcome).toBe('pass');
    expect((await judge([good], 'auth.token.scope')).check?.outcome).toBe('pass');
    const traffic = [good, posted(3, '/oauth/token', 200, record({ tokenType: 'bearer', scope: ['read'] }))];
    const type = await judge(traffic, 'auth.token.type-bearer');
    expect(type.check?.outcome).toBe('fail');
    expect(type.check?.finding?.message).toBe('tokenType is "bearer", not "Bearer"');
    expect(type.check?.exchanges.map((e) => e.seq)).toEqual([4]);
    expect(JSON.stringify(type.check?.exchanges)).not.toContain('tok-0123456789abcdef');
    const scope = await judge(traffic, 'auth.token.scope');
    expect(scope.check?.finding?.message).toBe('scope lacks write');
    const none = await judge([posted(0, '/oauth/token', 200, record({}))], 'auth.token.scope');
    expect(none.check?.skipReason).toBe(
      'no token record of the traffic has scope, so there is nothing to judge here; auth.token.fields judges its presence',
    );
    const refused = await judge(
      [posted(0, '/oauth/token', 401, '{"code":"401","message":"Unauthorized"}')],
      'auth.token.scope',
    );
    expect(refused.check?.skipReason).toBe('the traffic holds no 2xx answer of POST /oauth/token');
  });

  it('judges every token answer the traffic holds: its record, its fields, tokenIds, trustedIps, expiresIn and times', async () => {
    const at = Date.parse('2026-11-28T10:00:00Z');
    const seconds = Math.floor(at / 1000);
    const full = {
      message: 'Success',
      tokenId: 'tid-1',
      expiresIn: 3600,
      maxTTL: 3600,
      tokenType: 'Bearer',
      scope: ['read', 'write'],
      trustedIps: [],
      organization: { id: 1, name: 'Org', clientId: 'c-1' },
      createdAt: seconds,
      updatedAt: seconds,
    };
    const token = (index: number, fields: object, token = `tok-${index}-0123456789abcdef`) => ({
      ...posted(
        index,
        '/oauth/token',
        200,
        JSON.stringify({ data: { token, ...fields }, code: '200', message: 'Success' }),
      ),
      startedAt: new Date(at).toISOString(),
    });
    const good = [token(0, full), token(1, { ...full, tokenId: 'tid-2' })];
    const ids = [
      'auth.token.issued',
      'auth.token.fields',
      'auth.token.unique',
      'auth.token.trusted-ips',
      'auth.expiry.expires-in',
      'auth.token.timestamps',
    ];
    for (const id of ids) expect([id, (await judge(good, id)).check?.outcome]).toEqual([id, 'pass']);
    // INFO: the shape of the token answers, each reading once.
    expect((await judge(good, 'auth.token.response-shape')).check?.observations).toEqual([
      'status 200; token record inside the {data, code, message} envelope, with a message of its own',
      'scope (its type is not shown): an array, ["read","write"]',
    ]);

    const outcome = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    expect(
      await outcome([good[0]!, posted(2, '/oauth/token', 200, '{"data":{"token":""}}')], 'auth.token.issued'),
    ).toEqual(['fail', expect.stringMatching(/^Auth token record: data\.token /), [3]]);
    const { tokenId: _dropped, ...noTokenId } = full;
    expect(await outcome([token(4, noTokenId)], 'auth.token.fields')).toEqual([
      'warn',
      'the token record leaves out tokenId',
      [5],
    ]);
    expect(await outcome([good[0]!, token(6, full)], 'auth.token.unique')).toEqual([
      'fail',
      'two different tokens both carry tokenId "tid-1"',
      [1, 7],
    ]);
    // The same token handed out twice keeps its tokenId: one token, nothing to compare.
    expect(await outcome([good[0]!, token(6, full, 'tok-0-0123456789abcdef')], 'auth.token.unique')).toEqual([
      'skip',
      'the traffic holds fewer than two different tokens with a tokenId',
      [],
    ]);
    expect(await outcome([token(7, { ...full, trustedIps: '10.0.0.1' })], 'auth.token.trusted-ips')).toEqual([
      'fail',
      'trustedIps is "10.0.0.1", not a list of address strings',
      [8],
    ]);
    expect(await outcome([token(8, { ...full, expiresIn: 3_600_000 })], 'auth.expiry.expires-in')).toEqual([
      'warn',
      'expiresIn is 3600000: not a number of seconds from 0 to 3600 (60 minutes in milliseconds)',
      [9],
    ]);
    expect(await outcome([token(9, { ...full, updatedAt: at })], 'auth.token.timestamps')).toEqual([
      'fail',
      'createdAt counts seconds, updatedAt milliseconds',
      [10],
    ]);
    // One server, one meaning of "Unix timestamp": the token record counts the unit the items of the traffic's lists
    // count, where they count one.
    const instruments = (index: number, ...createdAt: number[]) =>
      answered(
        index,
        '/instruments?investmentType=INTERNATIONAL_STOCKS',
        200,
        'application/json',
        JSON.stringify({ data: createdAt.map((c, i) => ({ instrumentId: i + 1, createdAt: c, updatedAt: c })) }),
      );
    const inMs = token(12, { ...full, createdAt: at, updatedAt: at });
    expect(await outcome([instruments(11, 1735041600, 1735045200), inMs], 'auth.token.timestamps')).toEqual([
      'fail',
      "the token record's createdAt and updatedAt count milliseconds, while the server's other timestamps count seconds (1 200 answer(s) of a list endpoint in the traffic: Unix timestamps count seconds (4 of 4 timestamp(s) read))",
      [13],
    ]);
    expect((await judge([instruments(11, 1735041600), good[0]!], 'auth.token.timestamps')).check).toMatchObject({
      outcome: 'pass',
      observations: [
        "the token records' createdAt and updatedAt count seconds, as the server's resources do (1 200 answer(s) of a list endpoint in the traffic: Unix timestamps count seconds (2 of 2 timestamp(s) read))",
      ],
    });
    // Lists in milliseconds, and tokens too: one unit.
    expect((await outcome([instruments(11, 1735041600000), inMs], 'auth.token.timestamps'))[0]).toBe('pass');
    // No list, or lists that count both units (resources.timestamps.unix judges those): the unit is not compared.
    for (const lists of [[], [instruments(11, 1735041600, 1735041600000)]])
      expect((await judge([...lists, inMs], 'auth.token.timestamps')).check).toMatchObject({
        outcome: 'pass',
        observations: [
          expect.stringMatching(
            /^the token records' createdAt and updatedAt count milliseconds; the unit of the server's other timestamps was not compared/,
          ),
        ],
      });
    // Without the time its request was sent, a record's times have nothing to be near.
    const untimed = { ...token(10, full), startedAt: undefined };
    expect(await outcome([untimed], 'auth.token.timestamps')).toEqual([
      'skip',
      'no token record of the traffic has both createdAt and updatedAt and a time its request was sent at',
      [],
    ]);
  });

  it('judges the paging meta and currentCount of every list page the traffic holds', async () => {
    const meta = PAGE_META;
    const page = (index: number, data: unknown[], m: unknown) =>
      answered(
        index,
        '/transactions?customerId=1004&limit=2',
        200,
        'application/json',
        JSON.stringify({ data, meta: m }),
      );
    const good = page(0, [{ transactionId: 1 }, { transactionId: 2 }], meta);
    expect((await judge([good], 'pagination.meta.present')).check?.outcome).toBe('pass');
    expect((await judge([good], 'pagination.meta.current-count')).check?.outcome).toBe('pass');
    const miscounted = await judge(
      [good, page(1, [{ transactionId: 3 }], { ...meta, currentPage: 1, nextPage: 1, currentCount: 2 })],
      'pagination.meta.current-count',
    );
    expect(miscounted.check?.finding?.message).toBe(
      '#2 GET /transactions?customerId=1004&limit=2: meta.currentCount is 2 but data has 1 items',
    );
    expect(miscounted.check?.exchanges.map((e) => e.seq)).toEqual([2]);
    const bare = await judge([page(4, [], undefined)], 'pagination.meta.present');
    expect(bare.check?.outcome).toBe('fail');
    expect(bare.check?.finding?.message).toBe(
      '#5 GET /transactions?customerId=1004&limit=2: Paging meta: meta is absent',
    );
    const none = await judge(
      [answered(0, '/customers/9', 200, 'application/json', '{"data":{}}')],
      'pagination.meta.present',
    );
    expect(none.check?.skipReason).toBe('the traffic holds no 200 answer of a list endpoint');
  });

  it('warns on an asset, transaction or instrument record that leaves out fields of its table', async () => {
    const id = 'resources.fields.present';
    const customer = answered(0, '/customers/9', 200, 'application/json', '{"data":{"customerId":9}}');
    const transaction = answered(1, '/transactions/5', 200, 'application/json', '{"data":{"transactionId":5}}');
    const broken = await judge([customer, transaction], id);
    expect(broken.check?.outcome).toBe('warn');
    expect(broken.check?.finding?.message).toMatch(
      /^1 record\(s\) leave out fields of their table: #2 GET \/transactions\/5: data leaves out /,
    );
    expect(broken.check?.finding?.requirements).toEqual(['REQ-TXNEP-08']);
    expect(broken.check?.exchanges.map((e) => e.seq)).toEqual([2]);
    const none = await judge([customer], id);
    expect(none.check?.skipReason).toBe(
      'the traffic holds no 200 answer of an asset, transaction or instrument read with a record in data',
    );
  });

  it('judges the 2xx answers of GET /webhooks and GET /webhooks/key: a Webhook of the table, and, once configured, a key', async () => {
    const webhook = {
      webhookId: 'w-1',
      status: 'ACTIVE',
      url: 'https://client.example/hooks',
      subscriptions: ['ALL'],
      createdAt: 1764324000,
      updatedAt: 1764324000,
    };
    const body = (w: object) => JSON.stringify({ data: w, code: '200', message: 'Success' });
    const config = (index: number, w: object) => answered(index, '/webhooks', 200, 'application/json', body(w));
    const configured = (index: number) => posted(index, '/webhooks', 201, body(webhook));
    const { publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const key = (index: number, body: object) =>
      answered(index, '/webhooks/key', 200, 'application/json', JSON.stringify(body));
    const outcome = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    // Before the client configured a webhook, a server may answer without one: a 404, or a 2xx with none.
    const before = [
      answered(0, '/webhooks', 404, 'application/json', '{"code":"404","message":"Not Found"}'),
      answered(1, '/webhooks', 200, 'application/json', '{"data":null,"code":"200","message":"Success"}'),
      key(2, { data: null }),
    ];
    expect(await outcome(before, 'webhooks.config.get')).toEqual([
      'skip',
      'no 2xx answer of GET /webhooks in the traffic carries a Webhook or follows a configuration by its client (before one, a server may answer without one)',
      [],
    ]);
    expect(await outcome(before, 'webhooks.key.published')).toEqual([
      'skip',
      'no 2xx answer of GET /webhooks/key in the traffic follows a configuration by its client',
      [],
    ]);
    const good = [...before, configured(3), config(4, webhook), key(5, { data: { publicKey: pem } })];
    expect(await outcome(good, 'webhooks.config.get')).toEqual(['pass', undefined, []]);
    expect(await outcome(good, 'webhooks.config.fields')).toEqual(['pass', undefined, []]);
    expect(await outcome(good, 'webhooks.key.published')).toEqual(['pass', undefined, []]);

    expect(await outcome([config(6, { ...webhook, status: 'PAUSED' })], 'webhooks.config.get')).toEqual([
      'fail',
      expect.stringContaining('status'),
      [7],
    ]);
    const empty = answered(7, '/webhooks', 200, 'application/json', '{"code":"200"}');
    expect(await outcome([configured(6), empty], 'webhooks.config.get')).toEqual([
      'fail',
      'the answer carries no Webhook',
      [8],
    ]);
    const { updatedAt: _left, ...partial } = webhook;
    expect(await outcome([config(8, partial)], 'webhooks.config.fields')).toEqual([
      'warn',
      'the configuration leaves out updatedAt',
      [9],
    ]);
    expect(
      await outcome([configured(8), key(9, { data: { publicKey: 'not a key' } })], 'webhooks.key.published'),
    ).toEqual(['fail', expect.any(String), [10]]);
    // The answer of a configuration: a Webhook, whole or in part, has the table's types; none is no finding.
    expect(await outcome(good, 'webhooks.create.answer')).toEqual(['pass', undefined, []]);
    expect(
      await outcome(
        [posted(10, '/webhooks', 201, body({ url: webhook.url, status: 'PAUSED' }))],
        'webhooks.create.answer',
      ),
    ).toEqual(['fail', expect.stringContaining('status'), [11]]);
    expect(
      await outcome([posted(11, '/webhooks', 201, '{"code":"201","message":"Created"}')], 'webhooks.create.answer'),
    ).toEqual(['skip', 'the traffic holds no 2xx answer of POST or PUT /webhooks with a Webhook', []]);
  });

  it('judges the limit and the sort of every list page by what its request asked for', async () => {
    const item = (id: number, createdAt: number) => ({ transactionId: id, createdAt });
    const page = (index: number, query: string, data: unknown[], meta: object) =>
      answered(index, `/transactions?customerId=1004${query}`, 200, 'application/json', JSON.stringify({ data, meta }));
    const two = [item(1, 100), item(2, 200)];
    const good = [
      page(0, '&limit=2&sort=ASC', two, { ...PAGE_META, sort: 'ASC' }),
      page(1, '&sort=DESC', [item(2, 200), item(1, 100)], { ...PAGE_META, limit: 100, nextPage: 0, totalCount: 2 }),
    ];
    const ids = [
      'pagination.limit.respected',
      'pagination.limit.echo',
      'pagination.limit.default',
      'pagination.sort.asc',
      'pagination.sort.desc',
      'pagination.sort.default-consistent',
    ];
    const outcome = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [id, check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    expect(await Promise.all(ids.map((id) => outcome(good, id)))).toEqual([
      ['pagination.limit.respected', 'pass', undefined, []],
      ['pagination.limit.echo', 'pass', undefined, []],
      ['pagination.limit.default', 'pass', undefined, []],
      ['pagination.sort.asc', 'pass', undefined, []],
      ['pagination.sort.desc', 'pass', undefined, []],
      // Every page of this traffic asked for an order: none shows the default one.
      ['pagination.sort.default-consistent', 'skip', 'the traffic holds no page of a list asked for without sort', []],
    ]);
    // A limit outside the domain is the refusal check's to judge, which needs requests of its own.
    expect(await outcome([page(0, '&limit=5000', two, PAGE_META)], 'pagination.limit.echo')).toEqual([
      'pagination.limit.echo',
      'skip',
      'the traffic holds no page of a list asked for with a limit from 1 to 1000',
      [],
    ]);
    const three = [item(1, 100), item(2, 200), item(3, 300)];
    expect(
      await outcome([page(2, '&limit=2', three, { ...PAGE_META, currentCount: 3 })], 'pagination.limit.respected'),
    ).toEqual([
      'pagination.limit.respected',
      'fail',
      '#3 GET /transactions?customerId=1004&limit=2 returned 3 items',
      [3],
    ]);
    expect(await outcome([page(3, '&limit=2', two, { ...PAGE_META, limit: 100 })], 'pagination.limit.echo')).toEqual([
      'pagination.limit.echo',
      'fail',
      '#4 GET /transactions?customerId=1004&limit=2 answered with meta.limit 100',
      [4],
    ]);
    expect(await outcome([page(4, '', two, { ...PAGE_META, limit: 50 })], 'pagination.limit.default')).toEqual([
      'pagination.limit.default',
      'fail',
      '#5 GET /transactions?customerId=1004: without limit, meta.limit is 50',
      [5],
    ]);
    expect(await outcome([page(5, '&sort=ASC', two, PAGE_META)], 'pagination.sort.asc')).toEqual([
      'pagination.sort.asc',
      'fail',
      '#6 GET /transactions?customerId=1004&sort=ASC answered with meta.sort "DESC"',
      [6],
    ]);
    expect(await outcome([page(6, '&sort=DESC', two, PAGE_META)], 'pagination.sort.desc')).toEqual([
      'pagination.sort.desc',
      'fail',
      expect.stringMatching(
        /^#7 GET \/transactions\?customerId=1004&sort=DESC: meta\.sort says DESC, but within the page item 2 has createdAt 200 after 100/,
      ),
      [7],
    ]);
    expect(await outcome([page(7, '', two, PAGE_META)], 'pagination.sort.default-consistent')).toEqual([
      'pagination.sort.default-consistent',
      'fail',
      expect.stringMatching(/^#8 GET \/transactions\?customerId=1004: meta\.sort says DESC, but within the page /),
      [8],
    ]);
  });

  it('judges the order across two pages of a walk: a page asked for as the nextPage of another goes on in its order', async () => {
    const item = (id: number, createdAt: number) => ({ transactionId: id, createdAt });
    const page = (index: number, query: string, data: unknown[], meta: object) =>
      answered(
        index,
        `/transactions?customerId=1004&limit=2${query}`,
        200,
        'application/json',
        JSON.stringify({ data, meta }),
      );
    const first = { ...PAGE_META, currentPage: 0, nextPage: 1 };
    const second = { ...PAGE_META, previousPage: 0, currentPage: 1, nextPage: 1, currentCount: 2, totalCount: 4 };
    const outcome = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    // Each page in DESC order by itself, the second starting above where the first ended: cut from the ascending list
    // and each page reversed. An unrelated answer between the two pages does not part them.
    const perPage = [
      page(0, '&sort=DESC', [item(2, 200), item(1, 100)], first),
      answered(
        1,
        '/instruments?investmentType=INTERNATIONAL_STOCKS',
        404,
        'application/json',
        '{"code":"404","message":"Not Found"}',
      ),
      page(2, '&sort=DESC&page=1', [item(4, 400), item(3, 300)], second),
    ];
    expect(await outcome(perPage, 'pagination.sort.desc')).toEqual([
      'fail',
      '#3 GET /transactions?customerId=1004&limit=2&sort=DESC&page=1 follows #1 GET /transactions?customerId=1004&limit=2&sort=DESC (its meta.nextPage) with meta.sort DESC, but its first new item has createdAt 400 after 100, the last of the page before',
      [3],
    ]);
    // The list grew between the two requests: the second page starts with an item the first held, shifted by the new
    // one; the order goes on from the first new item.
    const grown = [
      page(0, '&sort=DESC', [item(4, 400), item(3, 300)], first),
      page(1, '&sort=DESC&page=1', [item(3, 300), item(2, 200)], { ...second, totalCount: 5 }),
    ];
    expect((await outcome(grown, 'pagination.sort.desc'))[0]).toBe('pass');
    // A last page whose nextPage leads back to the first page (an open reading): the first page asked for again is no
    // continuation; nor is a page asked for with another limit.
    const wrapped = [
      page(0, '&sort=ASC', [item(1, 100), item(2, 200)], { ...first, sort: 'ASC' }),
      page(1, '&sort=ASC&page=1', [item(3, 300), item(4, 400)], { ...second, nextPage: 0, sort: 'ASC' }),
      page(2, '&sort=ASC&page=0', [item(1, 100), item(2, 200)], { ...first, sort: 'ASC' }),
      answered(
        3,
        '/transactions?customerId=1004&limit=1&sort=ASC&page=1',
        200,
        'application/json',
        JSON.stringify({ data: [item(9, 50)], meta: { ...second, limit: 1, sort: 'ASC' } }),
      ),
    ];
    expect((await outcome(wrapped, 'pagination.sort.asc'))[0]).toBe('pass');
    // Without sort: one order for the whole walk.
    const changed = [
      page(0, '', [item(2, 200), item(1, 100)], first),
      page(1, '&page=1', [item(3, 50), item(4, 60)], { ...second, sort: 'ASC' }),
    ];
    expect(await outcome(changed, 'pagination.sort.default-consistent')).toEqual([
      'fail',
      '#2 GET /transactions?customerId=1004&limit=2&page=1 follows #1 GET /transactions?customerId=1004&limit=2 (its meta.nextPage), but meta.sort changes within the walk: "DESC" then "ASC"',
      [2],
    ]);
  });

  it('judges the fill of every first page with a positive totalCount, and ids a table calls unique', async () => {
    const outcome = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    const list = (index: number, path: string, data: unknown[], meta: object) =>
      answered(index, path, 200, 'application/json', JSON.stringify({ data, meta }));
    const accounts = [{ accountId: 7 }, { accountId: 8 }];
    // Two of three on the first page at limit 2; a later page, or one asked for with a limit outside 1 to 1000, is no
    // first page to judge.
    const filled = [
      list(0, '/accounts?customerId=1042&limit=2', accounts, PAGE_META),
      list(1, '/accounts?customerId=1042&limit=2&page=1', [{ accountId: 9 }], { ...PAGE_META, currentPage: 1 }),
      list(2, '/accounts?customerId=1042&limit=5000', [], PAGE_META),
    ];
    expect(await outcome(filled, 'pagination.limit.full-page')).toEqual(['pass', undefined, []]);
    expect(
      await outcome(
        [list(3, '/accounts?customerId=1042', [{ accountId: 7 }], PAGE_META)],
        'pagination.limit.full-page',
      ),
    ).toEqual(['warn', '#4 GET /accounts?customerId=1042 returned 1 items while totalCount is 3', [4]]);
    expect(await outcome([filled[1]!], 'pagination.limit.full-page')).toEqual([
      'skip',
      'the traffic holds no first page of a list (asked for without page) with a positive totalCount',
      [],
    ]);
    expect(await outcome(filled, 'resources.ids.unique')).toEqual(['pass', undefined, []]);
    // A page of one account cannot repeat one: judged nothing, a skip, never a pass.
    expect((await outcome([filled[1]!], 'resources.ids.unique'))[0]).toBe('skip');
    expect(
      await outcome(
        [list(4, '/accounts?customerId=1042', [{ accountId: 7 }, { accountId: 7 }], PAGE_META)],
        'resources.ids.unique',
      ),
    ).toEqual(['fail', '#5 GET /accounts: accountId 7 is listed twice on one page', [5]]);
    const customer = (index: number, id: number, referenceId: number) =>
      answered(
        index,
        `/customers/${id}`,
        200,
        'application/json',
        JSON.stringify({ data: { customerId: id, referenceId }, code: '200', message: 'Success' }),
      );
    expect(await outcome([customer(5, 1042, 77), customer(6, 1043, 77)], 'resources.ids.unique')).toEqual([
      'fail',
      'customers 1042 and 1043 both have referenceId 77',
      [7],
    ]);
    // A PUT of another customer changes neither of the two.
    const other = { ...customer(7, 2077, 78), request: { ...customer(7, 2077, 78).request, method: 'PUT' } };
    expect((await outcome([customer(5, 1042, 77), other, customer(6, 1043, 77)], 'resources.ids.unique'))[0]).toBe(
      'fail',
    );
    // A referenceId may move from one customer to another between two reads: not judged after a PUT of either.
    const put = { ...customer(7, 1042, 78), request: { ...customer(7, 1042, 78).request, method: 'PUT' } };
    expect(await outcome([customer(5, 1042, 77), put, customer(6, 1043, 77)], 'resources.ids.unique')).toEqual([
      'skip',
      'the traffic holds no 200 page of GET /accounts with two accounts or more, and no two customers read by id',
      [],
    ]);
    // PUT /customers whose body was not kept whole (a report's excerpt): the customer its 200 answer carries is the
    // one it updated ("200: `data` = Customer"); an answer that carries none leaves any customer possibly changed.
    const cutPut = (index: number, answer: string) => {
      const got = answered(index, '/customers', 200, 'application/json', answer);
      return {
        ...got,
        request: { ...got.request, method: 'PUT', bodyState: 'not-captured' as const },
      } satisfies TrafficExchange;
    };
    const updated = (id: number) => JSON.stringify({ data: { customerId: id, referenceId: 78 }, code: '200' });
    expect(
      await outcome([customer(5, 1042, 77), cutPut(7, updated(2077)), customer(6, 1043, 77)], 'resources.ids.unique'),
    ).toEqual(['fail', 'customers 1042 and 1043 both have referenceId 77', [7]]);
    for (const answer of [updated(1042), '{"code":"200","message":"Success"}'])
      expect(
        await outcome([customer(5, 1042, 77), cutPut(7, answer), customer(6, 1043, 77)], 'resources.ids.unique'),
      ).toEqual([
        'skip',
        'the traffic holds no 200 page of GET /accounts with two accounts or more, and no two customers read by id',
        [],
      ]);
  });

  it('judges every request that went without Authorization: served (2xx), it fails resources.errors.no-token', async () => {
    const outcome = async (traffic: TrafficExchange[]) => {
      const { check } = await judge(traffic, 'resources.errors.no-token');
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    const bare = (t: TrafficExchange): TrafficExchange => ({ ...t, request: { ...t.request, headers: [] } });
    const ok = (index: number) => answered(index, '/customers/1042', 200, 'application/json', '{"data":{}}');
    const refused = bare(
      answered(1, '/customers/1042', 401, 'application/json', '{"code":"401","message":"Unauthorized"}'),
    );
    // The token request goes without Authorization by design.
    const token = bare({
      ...answered(2, '/oauth/token', 200, 'application/json', '{}'),
      request: { ...ok(2).request, method: 'POST', url: `${BASE}/oauth/token` },
    });
    expect(await outcome([ok(0), refused, token])).toEqual(['pass', undefined, []]);
    expect(await outcome([ok(0), bare(ok(3))])).toEqual([
      'fail',
      '#4 GET /customers/1042 went without Authorization and was served (200)',
      [4],
    ]);
    expect(await outcome([ok(0)])).toEqual([
      'skip',
      'the traffic holds no request without Authorization within the base, but to the token endpoints',
      [],
    ]);
    // No request carries it at all: a recorder that strips it (a sanitized HAR), not a client that never sends it.
    expect(await outcome([bare(ok(0)), bare(ok(1))])).toEqual([
      'skip',
      'the traffic holds no request with Authorization: the recorder may have removed the header (a sanitized HAR), so none is judged to lack it',
      [],
    ]);
  });

  it('records the readings the traffic shows: the default order and whether page counts pages or items', async () => {
    const item = (id: number, createdAt: number) => ({ transactionId: id, createdAt });
    const page = (index: number, query: string, meta: object) =>
      answered(
        index,
        `/transactions?customerId=1004${query}`,
        200,
        'application/json',
        JSON.stringify({ data: [item(2, 200), item(1, 100)], meta }),
      );
    const read = async (traffic: TrafficExchange[], id: string) => {
      const { check } = await judge(traffic, id);
      return [check?.outcome, check?.outcome === 'skip' ? check.skipReason : check?.observations];
    };
    const indexed = [
      page(0, '&limit=2', PAGE_META),
      page(1, '&limit=2&page=1', { ...PAGE_META, currentPage: 1, nextPage: 2 }),
    ];
    expect(await read(indexed, 'pagination.info.default-sort')).toEqual([
      'pass',
      ['#1 GET /transactions?customerId=1004&limit=2: without sort: meta.sort "DESC", items descending by createdAt'],
    ]);
    expect(await read(indexed, 'pagination.info.page-mode')).toEqual([
      'pass',
      ['page is a page index; #1 GET /transactions?customerId=1004&limit=2 reports currentPage 0, nextPage 1'],
    ]);
    const offset = [page(0, '&limit=2', { ...PAGE_META, nextPage: 2 })];
    expect((await read(offset, 'pagination.info.page-mode'))[1]).toEqual([
      'page is an item offset; #1 GET /transactions?customerId=1004&limit=2 reports currentPage 0, nextPage 2',
    ]);
    // At limit 1 a page and an item are one step: nothing to read.
    expect(await read([page(0, '&limit=1', PAGE_META)], 'pagination.info.page-mode')).toEqual([
      'skip',
      'the traffic holds no first page of a list, at a limit over 1, whose nextPage moves on from currentPage',
    ]);
  });

  it('judges the currentPage of every page with items asked for with a page value', async () => {
    const page = (index: number, query: string, data: unknown[], meta: object) =>
      answered(index, `/accounts?customerId=1042${query}`, 200, 'application/json', JSON.stringify({ data, meta }));
    const one = [{ accountId: 7 }];
    const outcome = async (traffic: TrafficExchange[]) => {
      const { check } = await judge(traffic, 'pagination.walk.page-links');
      return [check?.outcome, check?.finding?.message ?? check?.skipReason, check?.exchanges.map((e) => e.seq)];
    };
    const good = [
      page(0, '&limit=1', one, { ...PAGE_META, limit: 1, currentCount: 1 }),
      page(1, '&limit=1&page=1', one, { ...PAGE_META, limit: 1, currentCount: 1, currentPage: 1, previousPage: 0 }),
      // Past the end, an empty page says nothing of the page asked for.
      page(2, '&limit=1&page=9', [], { ...PAGE_META, limit: 1, currentCount: 0, currentPage: 0 }),
    ];
    expect(await outcome(good)).toEqual(['pass', undefined, []]);
    expect(await outcome([good[0]!])).toEqual([
      'skip',
      'the traffic holds no page of a list with items asked for with a page value',
      [],
    ]);
    expect(await outcome([page(3, '&limit=1&page=2', one, { ...PAGE_META, currentPage: 1 })])).toEqual([
      'fail',
      '#4 GET /accounts?customerId=1042&limit=1&page=2 answered with meta.currentPage 1',
      [4],
    ]);
    // A page asked for as the nextPage of another names that page's currentPage as its previousPage.
    const unlinked = { ...PAGE_META, limit: 1, currentCount: 1, currentPage: 1, previousPage: 1 };
    expect(await outcome([good[0]!, page(4, '&limit=1&page=1', one, unlinked)])).toEqual([
      'fail',
      '#5 GET /accounts?customerId=1042&limit=1&page=1 follows #1 GET /accounts?customerId=1042&limit=1 (its meta.nextPage) but has previousPage 1, the page before had currentPage 0',
      [5],
    ]);
    // Asked for alone, with no page before it in the traffic, its previousPage is not judged.
    expect(await outcome([page(4, '&limit=1&page=1', one, unlinked)])).toEqual(['pass', undefined, []]);
    // A page served for page=-1 that says currentPage -1 and nextPage 0 is on no walk: page=0 asked for after it is
    // not its next page (its meta is pagination.meta.present's to fail), so previousPage 0 is no finding here.
    const negative = { ...PAGE_META, limit: 1, currentCount: 1, currentPage: -1, nextPage: 0 };
    expect(
      await outcome([
        page(5, '&page=-1', one, negative),
        page(6, '&page=0', one, { ...PAGE_META, limit: 1, currentCount: 1 }),
      ]),
    ).toEqual(['pass', undefined, []]);
  });

  it('judges every read of a resource by its id and every page of a list against its table, citing the answer', async () => {
    const env = (data: unknown) => JSON.stringify({ data, code: '200', message: 'Success' });
    const customer = (index: number, path: string, data: object) =>
      answered(index, path, 200, 'application/json', env({ firstName: 'Amara', status: 'ACTIVE', ...data }));
    const clean = await judge([customer(0, '/customers/1042', { customerId: 1042 })], 'resources.customers.get');
    expect(clean.check?.outcome).toBe('pass');
    const other = await judge([customer(2, '/customers/1042', { customerId: 7 })], 'resources.customers.get');
    expect(other.check?.finding?.message).toBe('data.customerId is 7, not 1042');
    expect(other.check?.exchanges.map((e) => e.seq)).toEqual([3]);
    // A % that starts no escape is the id as sent: judged, never a crash of the check.
    const odd = await judge([customer(3, '/customers/10%ZZ', { customerId: 1042 })], 'resources.customers.get');
    expect(odd.check?.finding?.message).toBe('data.customerId is 1042, not 10%ZZ');
    const typed = await judge([customer(5, '/customers/1042', { customerId: '1042' })], 'resources.customers.get');
    expect(typed.check?.outcome).toBe('fail');
    expect(typed.check?.exchanges.map((e) => e.seq)).toEqual([6]);
    const list = await judge(
      [answered(7, '/accounts?customerId=1042', 200, 'application/json', env([{ accountId: 1, customerId: 9 }]))],
      'resources.accounts.list',
    );
    expect(list.check?.outcome).toBe('fail');
    expect(list.check?.exchanges.map((e) => e.seq)).toEqual([8]);
    const empty = await judge(
      [answered(0, '/instruments', 200, 'application/json', EMPTY_PAGE)],
      'resources.instruments.list',
    );
    expect(empty.check?.skipReason).toBe(
      'every observed page of GET /instruments was empty: no record to judge against its table',
    );
  });
});
