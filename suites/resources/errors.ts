// Suite `resources`, area `errors`: the Errors table: 401 without a token, 404 for what does not exist, malformed ids
// rejected, the error body, the message text.
import {
  alterSignature,
  cite,
  describeResponse,
  errorBodyOf,
  expectErrorBody,
  expectJson,
  expectRejection,
  expectStatus,
  headerValue,
  isObject,
  observedAnswers,
  observedLine,
  observedPath,
  observedTraffic,
  parseJson,
  readProbe,
  setHeader,
  tokenIn,
  tokenRequest,
  withTokens,
  type HttpResponse,
  type Query,
  type RequestSpec,
  pool,
} from '../kit/index.js';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import { BY_ID, byIdPath, LISTS } from './helpers/endpoints.js';

/** The `error` member of an RFC 6749 §5.2 error answer, if the body is one. */
function oauthErrorOf(res: HttpResponse): string | undefined {
  const parsed = parseJson(res.text);
  const body = parsed.ok && isObject(parsed.value) ? parsed.value : undefined;
  return typeof body?.error === 'string' ? body.error : undefined;
}

export const errorsNoToken = defineCheck({
  id: 'resources.errors.no-token',
  title:
    'every other endpoint but the token endpoints (resources, USSD views, webhooks) without a token answers 401 with the error body',
  level: 'MUST',
  // PUT /customers and POST /webhooks/test change shared state should the server wrongly serve them.
  uses: ['mutable-customer', 'webhook-config'],
  requirements: [
    'REQ-SVC-09',
    'REQ-ACCTEP-04',
    'REQ-ACCTEP-07',
    'REQ-CUSTEP-08',
    'REQ-INSTEP-05',
    'REQ-ASSETEP-04',
    'REQ-TXNEP-03',
    'REQ-TXNEP-06',
    'REQ-AUTH-01',
    'REQ-ERR-01',
    'REQ-ERR-02',
  ],
  explain: {
    sends:
      "every endpoint but the token endpoints, signed but without Authorization: GET /accounts, /transactions, /instruments, /accounts/{id}, /assets/{id}, /transactions/{id}, PUT /customers with only the mutable customer's id (nothing changes), GET /ussd/stocks, /ussd/assets, /ussd/requests, GET /webhooks, GET /webhooks/key and POST /webhooks/test (never POST or PUT /webhooks, which would replace the configuration if wrongly served); an endpoint whose fixture is not configured is left out",
    passes: 'each answers 401 with the error body {code, message}',
    fails: 'any other status, or a 401 without the error body (the report names the endpoint): the check fails',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    const requests: Array<{ what: string; method: string; path: string; query?: Query; json?: unknown }> = [];
    if (f.customerId !== undefined) {
      requests.push({
        what: 'GET /accounts',
        method: 'GET',
        path: '/accounts',
        query: { customerId: f.customerId },
      });
      requests.push({
        what: 'GET /transactions',
        method: 'GET',
        path: '/transactions',
        query: { customerId: f.customerId },
      });
    }
    requests.push({
      what: 'GET /instruments',
      method: 'GET',
      path: '/instruments',
      query: { investmentType: 'INTERNATIONAL_STOCKS' },
    });
    if (f.accountId !== undefined)
      requests.push({ what: 'GET /accounts/{id}', method: 'GET', path: `/accounts/${f.accountId}` });
    if (f.assetId !== undefined)
      requests.push({ what: 'GET /assets/{id}', method: 'GET', path: `/assets/${f.assetId}` });
    if (f.transactionId !== undefined)
      requests.push({ what: 'GET /transactions/{id}', method: 'GET', path: `/transactions/${f.transactionId}` });
    // Only customerId: should the server wrongly serve it, nothing changes.
    if (f.mutableCustomerId !== undefined)
      requests.push({
        what: 'PUT /customers',
        method: 'PUT',
        path: '/customers',
        json: { customerId: f.mutableCustomerId },
      });
    if (f.customerId !== undefined) {
      for (const view of ['stocks', 'assets', 'requests'])
        requests.push({
          what: `GET /ussd/${view}`,
          method: 'GET',
          path: `/ussd/${view}`,
          query: { customerId: f.customerId },
        });
    }
    requests.push(
      { what: 'GET /webhooks', method: 'GET', path: '/webhooks' },
      { what: 'GET /webhooks/key', method: 'GET', path: '/webhooks/key' },
    );
    // Wrongly served, it sends one test delivery and changes no configuration. POST and PUT /webhooks are never sent
    // without a token: wrongly served, they would replace the client's webhook configuration.
    requests.push({ what: 'POST /webhooks/test', method: 'POST', path: '/webhooks/test' });
    // Independent requests, four at once (the run's first concurrency: a check holds one slot, not the server), then
    // judged in the order above: the first failure in it is the one reported, and none is left in flight (pool).
    const answers = await pool(requests, 4, (r) =>
      ctx.send({
        method: r.method,
        path: r.path,
        token: null,
        ...(r.query ? { query: r.query } : {}),
        ...(r.json ? { json: r.json } : {}),
      }),
    );
    for (const [i, r] of requests.entries()) {
      const res = answers[i]!;
      expectStatus(ctx, res, 401, `401 Unauthorized for ${r.what} without an Authorization header`);
      expectErrorBody(ctx, res);
      ctx.judged(`${r.what} without a token`);
    }
    ctx.observe(`${requests.length} endpoints answered 401 without a token`);
  },
  // Observed traffic: every request within the target's base but the token endpoints' that went without Authorization
  // (a client's slip): a 2xx served it without a token. Any other status is not judged here, since such a request may
  // be wrong in more ways than this one. Judged only where some request of the traffic carries Authorization: a
  // recorder that strips the header (a sanitized HAR) would make every request look like one without a token.
  async observe(ctx) {
    const answers = observedTraffic(ctx).filter((res) => {
      const path = observedPath(ctx, res);
      return path !== undefined && !path.startsWith('/oauth/');
    });
    const bare = (res: HttpResponse) => headerValue(res.exchange.request.headers, 'authorization') === undefined;
    if (answers.length > 0 && answers.every(bare))
      ctx.skip(
        'the traffic holds no request with Authorization: the recorder may have removed the header (a sanitized HAR), so none is judged to lack it',
      );
    const without = answers.filter(bare);
    if (without.length === 0)
      ctx.skip('the traffic holds no request without Authorization within the base, but to the token endpoints');
    const served = without.find((res) => res.status >= 200 && res.status <= 299);
    if (served !== undefined)
      ctx.fail(`${observedLine(ctx, served)} went without Authorization and was served (${served.status})`, {
        expected: '401 Unauthorized: every endpoint but the token endpoints needs the bearer token',
        observed: describeResponse(served),
        exchange: cite(ctx, served),
        requirements: ['REQ-AUTH-01', 'REQ-SVC-09', 'REQ-ERR-02'],
      });
    ctx.judged('a request without Authorization', without.length);
  },
});

export const errorsNotFound = defineCheck({
  id: 'resources.errors.not-found',
  title: 'GET of a customer, account, asset or transaction that does not exist answers 404 with the error body',
  level: 'MUST',
  requirements: ['REQ-ACCTEP-07', 'REQ-CUSTEP-03', 'REQ-ASSETEP-04', 'REQ-TXNEP-06', 'REQ-ERR-01', 'REQ-ERR-03'],
  explain: {
    sends:
      'GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} with fixtures.unknownId, which names no resource',
    passes: 'each answers 404 with the error body {code, message}',
    fails: 'any other status, or a 404 without the error body: the check fails',
  },
  async run(ctx) {
    const unknown = ctx.fixture('unknownId');
    const messages = new Set<string>();
    for (const ep of BY_ID) {
      const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${unknown}` });
      expectStatus(ctx, res, 404, `404 for GET ${ep.prefix}/${unknown} (fixtures.unknownId names no resource)`);
      expectErrorBody(ctx, res);
      const body = expectJson(ctx, res) as Record<string, unknown>;
      messages.add(String(body.message));
      ctx.judged(`GET ${ep.prefix}/${unknown}`);
    }
    ctx.observe(`404 message text: ${[...messages].map((m) => JSON.stringify(m)).join(', ')}`);
  },
});

export const errorsMalformedId = defineCheck({
  id: 'resources.errors.malformed-id',
  title: 'GET of a customer, account, asset or transaction with a non-integer id is rejected, never a 5xx',
  level: 'MUST',
  requirements: ['REQ-ACCTEP-05', 'REQ-CUSTEP-01', 'REQ-ASSETEP-02', 'REQ-TXNEP-04'],
  explain: {
    sends: 'GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} with the ids not-an-id and 1.5',
    passes: 'each is rejected (any 4xx): the ids are integers',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    for (const ep of BY_ID) {
      for (const bad of ['not-an-id', '1.5']) {
        const res = await ctx.send({ method: 'GET', path: `${ep.prefix}/${bad}` });
        expectRejection(ctx, res, `GET ${ep.prefix}/${bad} is rejected (any 4xx): ${ep.idField} is an integer`);
        ctx.judged(`GET ${ep.prefix}/${bad}`);
      }
    }
  },
});

export const errorsBody = defineCheck({
  id: 'resources.errors.body',
  title:
    'refused requests (no token, unknown or malformed id, missing query, wrong client secret, altered signature) answer with the JSON error body {code, message}, both strings',
  level: 'MUST',
  // A wrong secret that is wrongly given a token: the token is revoked before the check ends.
  uses: ['token-revocation'],
  requirements: ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02', 'REQ-HDR-01'],
  note: 'Only answers that are rejections (4xx) are judged here: that a request is refused, and with which status, is the business of the checks of each endpoint.',
  explain: {
    sends:
      'requests a server refuses: a read without a token, a customer and the accounts of a customer that do not exist, an account id that is not an integer, each list without its required query, a token request with a wrong secret (a token given is revoked), and a read whose signature was altered',
    passes:
      'every answer that is a rejection (4xx) carries the JSON error body {"code": string, "message": string}; the token endpoint may answer with an OAuth 2.0 error body ({"error": …}) instead',
    fails:
      'a rejection without that body (the report lists which): the check fails; an answer that is no rejection is left to the checks of its endpoint',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const f = ctx.fixtures;
      const answers: Array<{ what: string; res: HttpResponse }> = [];
      const ask = async (what: string, spec: RequestSpec) => answers.push({ what, res: await ctx.send(spec) });
      await ask('a read without a token', { ...readProbe(ctx), token: null });
      if (f.unknownId !== undefined) {
        await ask('a customer that does not exist', { method: 'GET', path: `/customers/${f.unknownId}` });
        await ask('the accounts of a customer that does not exist', {
          method: 'GET',
          path: '/accounts',
          query: { customerId: f.unknownId },
        });
      }
      await ask('an account id that is not an integer', { method: 'GET', path: '/accounts/not-an-id' });
      for (const ep of LISTS) await ask(`GET ${ep.path} without its required query`, { method: 'GET', path: ep.path });
      // Nothing of the real secret in it: a wrong secret is not redacted everywhere a real one is.
      const wrong =
        ctx.credentials.clientSecret === 'conformance-wrong-secret'
          ? 'conformance-wrong-secret-2'
          : 'conformance-wrong-secret';
      const token = await ctx.send(tokenRequest({ clientId: ctx.credentials.clientId, clientSecret: wrong }));
      // The token exchange is "OAuth 2.0 style" and the Errors table leaves the token endpoints out of its 401 row: an
      // RFC 6749 §5.2 error body ({"error": "invalid_client"}) there is a reading a correct server may take.
      if (
        token.status >= 400 &&
        token.status <= 499 &&
        errorBodyOf(token) === undefined &&
        oauthErrorOf(token) !== undefined
      ) {
        ctx.observe(
          `the token endpoint refuses with an OAuth 2.0 error body (RFC 6749 §5.2): error ${JSON.stringify(oauthErrorOf(token))}, not {code, message}; accepted there`,
        );
      } else answers.push({ what: 'a token request with a wrong client secret', res: token });
      const issued = tokenIn(token);
      if (issued) {
        await jar.keep(issued.token);
        ctx.observe(
          'also seen here, judged by auth.token.wrong-secret: a token request with a wrong secret was given a token (revoked before this check ended)',
        );
      }
      await ask('a read whose signature was altered', {
        ...readProbe(ctx),
        tamper: (req) => setHeader(req.headers, 'Signature', alterSignature(headerValue(req.headers, 'signature')!)),
      });

      judgeErrorBodies(ctx, answers);
    });
  },
  // Observed traffic: every 4xx answer within the target's base, by the same rule. A 429 is left out as in a run,
  // where the transport waits it out and no check sees it: the spec shows no rate limits (Limits), and a throttling
  // gateway in front of the server answers it as often as the server.
  async observe(ctx) {
    const answers = observedAnswers(
      ctx,
      '4xx answer other than 429',
      (res) => res.status >= 400 && res.status <= 499 && res.status !== 429 && observedPath(ctx, res) !== undefined,
    ).flatMap((res) => {
      const path = observedPath(ctx, res)!;
      const what = observedLine(ctx, res);
      // The token endpoints, as in a run: an RFC 6749 §5.2 error body is a reading a correct server may take there.
      if (path.startsWith('/oauth/') && errorBodyOf(res) === undefined && oauthErrorOf(res) !== undefined) {
        ctx.observe(`${what} refuses with an OAuth 2.0 error body (RFC 6749 §5.2): accepted on the token endpoints`);
        return [];
      }
      return [{ what, res }];
    });
    if (answers.length === 0) ctx.skip('the traffic holds no 4xx answer other than 429 outside the token endpoints');
    judgeErrorBodies(ctx, answers);
  },
});

/**
 * Judges the error body of every answer that is a rejection (4xx); other answers are observed and left to the checks of
 * their endpoint. Fails on the first without {code, message}, citing its exchange.
 */
function judgeErrorBodies(ctx: CheckContext, answers: ReadonlyArray<{ what: string; res: HttpResponse }>): void {
  const judged = answers.filter((a) => a.res.status >= 400 && a.res.status <= 499);
  for (const a of answers.filter((x) => !judged.includes(x))) {
    ctx.observe(
      `not a rejection, so no error body to judge here (the checks of that endpoint judge the status): ${a.what} answered ${describeResponse(a.res)}`,
    );
  }
  if (judged.length === 0)
    ctx.skip('no request of the battery was refused with a 4xx, so no error body could be judged');
  const wrongBodies = judged.filter((a) => errorBodyOf(a.res) === undefined);
  if (wrongBodies.length > 0) {
    const first = wrongBodies[0]!;
    const notJson = wrongBodies.filter((a) => !parseJson(a.res.text).ok);
    ctx.fail(
      `${wrongBodies.length} of ${judged.length} rejection(s) came without the error body {code, message}: ${wrongBodies.map((a) => `${a.what} (${a.res.status})`).join('; ')}`,
      {
        expected: 'every error answer is the JSON body {"code": string, "message": string}',
        observed: describeResponse(first.res),
        exchange: cite(ctx, first.res),
        requirements: notJson.length
          ? ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02', 'REQ-HDR-01']
          : ['REQ-ERR-01', 'REQ-ERRB-01', 'REQ-ERRB-02'],
      },
    );
  }
  for (const a of judged) ctx.judged(a.what);
  const codes = judged.map((a) => `${a.res.status} → ${JSON.stringify(errorBodyOf(a.res)!.code)}`);
  const statusLike = judged.every((a) => errorBodyOf(a.res)!.code === String(a.res.status));
  ctx.observe(
    `error codes (the spec says only "string"): ${[...new Set(codes)].join(', ')}${statusLike ? ' — the HTTP status as a string' : ''}`,
  );
}

export const errorsMessageText = defineCheck({
  id: 'resources.errors.message-text',
  title:
    'a 401 says "Unauthorized" and a 404 says "Not Found", as the Errors table writes them (any case, any wording around them)',
  level: 'MUST',
  requirements: ['REQ-ERR-02', 'REQ-ERR-03'],
  note: 'The only check that judges the message text; read leniently: /unauthori[sz]ed/i for a 401, /not\\s*found/i for a 404 ("Not Found (the specified resource was not found)" and "The specified resource was not found" both pass).',
  explain: {
    sends:
      'reads without a token (GET /customers/{id}, GET /accounts, GET /instruments), and GET /customers/{id}, /accounts/{id}, /assets/{id} and /transactions/{id} of fixtures.unknownId',
    passes:
      'where a 401 or a 404 comes with the error body, its message says "Unauthorized" (a 401) or "Not Found" (a 404), in any case and with any words around them',
    fails:
      'a message without those words (the report lists which): the check fails; another status or a missing body is left to other checks',
  },
  async run(ctx) {
    const f = ctx.fixtures;
    const probes: Array<{ what: string; status: 401 | 404; spec: RequestSpec }> = [];
    if (f.customerId !== undefined) {
      probes.push({
        what: 'GET /customers/{id} without a token',
        status: 401,
        spec: { method: 'GET', path: `/customers/${f.customerId}`, token: null },
      });
      probes.push({
        what: 'GET /accounts without a token',
        status: 401,
        spec: { method: 'GET', path: '/accounts', query: { customerId: f.customerId }, token: null },
      });
    }
    probes.push({
      what: 'GET /instruments without a token',
      status: 401,
      spec: { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' }, token: null },
    });
    if (f.unknownId !== undefined) {
      for (const ep of BY_ID)
        probes.push({
          what: `GET ${ep.prefix}/{id} of an unknown id`,
          status: 404,
          spec: { method: 'GET', path: `${ep.prefix}/${f.unknownId}` },
        });
    }
    const answers: TextAnswer[] = [];
    for (const p of probes) {
      const res = await ctx.send(p.spec);
      if (res.status === p.status) answers.push({ what: p.what, status: p.status, res });
      else
        ctx.observe(
          `${p.what} answered ${res.status}, not ${p.status}: its status is judged by the checks of that endpoint, its text not here`,
        );
    }
    judgeMessageTexts(ctx, answers);
  },
  // Observed traffic: a 401 of any endpoint but the token endpoints (the Errors table: "every endpoint except the token
  // endpoints"), and a 404 of a read by id whose id is well formed, as the run's own probes of fixtures.unknownId: a
  // 404 to a malformed request (an id or a query the server refuses) is the server's reading of the validation status,
  // which the spec leaves open (validation-status=404), with a message of its own.
  async observe(ctx) {
    const answers = observedAnswers(ctx, '401 or 404 answer of an endpoint that lists it', (res) => {
      const path = observedPath(ctx, res);
      if (path === undefined) return false;
      if (res.status === 401) return !path.startsWith('/oauth/');
      return res.status === 404 && unknownIdRead(res.exchange.request.method, path);
    });
    judgeMessageTexts(
      ctx,
      answers.map((res) => ({
        what: observedLine(ctx, res),
        status: res.status as 401 | 404,
        res,
      })),
    );
  },
});

const TEXT = {
  401: { pattern: /unauthori[sz]ed/i, words: 'Unauthorized', requirement: 'REQ-ERR-02' },
  404: {
    pattern: /not\s*found/i,
    words: 'Not Found (the specified resource was not found)',
    requirement: 'REQ-ERR-03',
  },
} as const;

interface TextAnswer {
  what: string;
  status: 401 | 404;
  res: HttpResponse;
}

/** A read by id (GET /customers/{id}, /accounts/{id}, /assets/{id}, /transactions/{id}) of an integer id. */
function unknownIdRead(method: string, path: string): boolean {
  if (method !== 'GET') return false;
  return BY_ID.some((ep) => /^\d+$/.test(byIdPath(ep.prefix, path) ?? ''));
}

/** Judges the message of each 401 and 404 that carries the error body; one without it is resources.errors.body's. */
function judgeMessageTexts(ctx: CheckContext, answers: readonly TextAnswer[]): void {
  const wrong: Array<TextAnswer & { message: string }> = [];
  const messages = new Set<string>();
  let judged = 0;
  for (const a of answers) {
    const body = errorBodyOf(a.res);
    if (!body) {
      ctx.observe(
        `also seen here, judged by resources.errors.body: ${a.what} answered ${a.status} without the error body`,
      );
      continue;
    }
    judged++;
    messages.add(`${a.status} ${JSON.stringify(body.message)}`);
    if (!TEXT[a.status].pattern.test(body.message)) wrong.push({ ...a, message: body.message });
  }
  if (judged === 0) ctx.skip('no 401 or 404 came with an error body, so no message text could be judged');
  if (wrong.length > 0) {
    const first = wrong[0]!;
    ctx.fail(
      `${wrong.length} of ${judged} error message(s) do not say what the Errors table lists: ${wrong.map((w) => `${w.what}: ${w.status} ${JSON.stringify(w.message)}`).join('; ')}`,
      {
        expected: `a 401 says "${TEXT[401].words}", a 404 says "${TEXT[404].words}" (any case; other words around them allowed)`,
        observed: describeResponse(first.res),
        exchange: cite(ctx, first.res),
        requirements: [...new Set(wrong.map((w) => TEXT[w.status].requirement))],
      },
    );
  }
  ctx.judged('an error message', judged);
  ctx.observe(`message texts: ${[...messages].join(', ')}`);
}
