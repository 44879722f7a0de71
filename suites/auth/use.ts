// Area `auth.use`: using a token (spec "Authentication"): a request without one, with a malformed or unknown one,
// without or with another X-Client-Id is refused; a token of the client is accepted on every read endpoint.
import {
  describeResponse,
  expectRejection,
  expectStatus,
  isSuccess,
  readProbe,
  withTokens,
  type RequestSpec,
} from '../kit/index.js';
import { randomBytes } from 'node:crypto';
import { defineCheck } from '../../src/engine/index.js';

export const useChecks = [
  defineCheck({
    id: 'auth.use.no-authorization',
    title: 'a request without Authorization is rejected with 401',
    level: 'MUST',
    requirements: ['REQ-AUTH-01', 'REQ-ERR-02'],
    explain: {
      sends:
        'a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), with X-Client-Id but no Authorization header',
      passes: 'the server answers 401',
      fails:
        'any other status (a 2xx served the request; a 403, 400 or other 4xx is not the 401 the spec lists): the check fails',
    },
    async run(ctx) {
      const res = await ctx.send({ ...readProbe(ctx), token: null });
      expectStatus(
        ctx,
        res,
        401,
        '401 Unauthorized: the request is signed and carries X-Client-Id, but no Authorization header',
      );
      ctx.judged('the answer to a read without Authorization');
    },
  }),
  defineCheck({
    id: 'auth.use.malformed-bearer',
    title: 'a request whose Authorization is not "Bearer <token>" is refused',
    level: 'MUST',
    requirements: ['REQ-AUTH-01'],
    note: 'No access token, so refused (REQ-AUTH-01). Any 4xx: the Errors table lists 401 but not the conditions of it (REQ-ERR-06), and RFC 6750 §3.1 answers a malformed request (invalid_request) with 400, a credential that is no token (invalid_token) with 401. The status is recorded.',
    explain: {
      sends:
        'a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), with Authorization "Bearer <not a token>" and signed over that header',
      passes:
        'the server refuses it (any 4xx: 401 as the Errors table lists, or 400 as RFC 6750 §3.1 answers a malformed request); the status is recorded',
      fails: 'a 2xx (the request was served without a token) or a 5xx (the server crashed on it): the check fails',
    },
    async run(ctx) {
      // Signed over this very header, so the header is the only thing wrong.
      const res = await ctx.send({
        ...readProbe(ctx),
        token: null,
        headers: [['Authorization', 'Bearer <not a token>']],
      });
      expectRejection(ctx, res, 'a rejection (any 4xx): Authorization is "Bearer <not a token>", no access token');
      ctx.observe(`Authorization "Bearer <not a token>" was refused with ${res.status}`);
      ctx.judged('the answer to a read with a malformed Authorization');
    },
  }),
  defineCheck({
    id: 'auth.use.unknown-token',
    title: 'a request with a well-formed but never issued bearer token is rejected with 401',
    level: 'MUST',
    requirements: ['REQ-AUTH-01', 'REQ-ERR-02'],
    explain: {
      sends:
        'a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), with a random, well-formed bearer token that was never issued',
      passes: 'the server answers 401',
      fails:
        'any other status (a 2xx served the request; a 403, 400 or other 4xx is not the 401 the spec lists): the check fails',
    },
    async run(ctx) {
      const res = await ctx.send({ ...readProbe(ctx), token: randomBytes(32).toString('base64url') });
      expectStatus(ctx, res, 401, '401 Unauthorized: the bearer token was never issued');
      ctx.judged('the answer to a read with a never-issued token');
    },
  }),
  defineCheck({
    id: 'auth.use.no-client-id',
    title: 'a request without X-Client-Id is rejected',
    level: 'SHOULD',
    requirements: ['REQ-HDR-22'],
    explain: {
      sends:
        'a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), with a valid token but no X-Client-Id header',
      passes: 'the server rejects it (any 4xx is a rejection)',
      fails:
        'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
    },
    async run(ctx) {
      const res = await ctx.send({ ...readProbe(ctx), clientId: null });
      expectRejection(ctx, res, 'a rejection (any 4xx): a valid token, signed, but no X-Client-Id header');
      ctx.judged('the answer to a read without X-Client-Id');
    },
  }),
  defineCheck({
    id: 'auth.use.other-client-id',
    title: "a request whose X-Client-Id names another client than the token's is rejected",
    level: 'SHOULD',
    requirements: ['REQ-HDR-22'],
    explain: {
      sends:
        "a signed read that answers 2xx to a correct request (GET /customers/{customerId}, or GET /instruments where fixtures.customerId is not configured), whose X-Client-Id names a made-up client (signed over it; the token is this client's)",
      passes: 'the server rejects it (any 4xx is a rejection)',
      fails:
        'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
    },
    async run(ctx) {
      const other = `conformance-other-${randomBytes(6).toString('hex')}`;
      // Signed over the made-up id: the signature is valid, only the id is not this client's.
      const res = await ctx.send({ ...readProbe(ctx), clientId: other });
      expectRejection(
        ctx,
        res,
        `a rejection (any 4xx): X-Client-Id ${JSON.stringify(other)} is not the client the token was issued to`,
      );
      ctx.judged('the answer to a read naming another client');
    },
  }),
  defineCheck({
    id: 'auth.use.read-endpoints',
    title: 'a token of this client is accepted on every read endpoint',
    level: 'MUST',
    requirements: ['REQ-SVC-02', 'REQ-AUTH-10'],
    explain: {
      sends:
        'one fresh token, used on every read endpoint the configured fixtures allow: GET /customers/{id}, /accounts?customerId, /accounts/{id}, /instruments?investmentType=INTERNATIONAL_STOCKS, /assets/{id}, /transactions?customerId and /transactions/{id}; revoked afterwards',
      passes:
        'no endpoint refuses the token with 401 or 403 (any other status is about the resource, which the resources checks judge)',
      fails: 'a 401 or a 403 on any of them (the report lists which): the check fails',
    },
    async run(ctx) {
      const f = ctx.fixtures;
      const candidates: Array<{ label: string; fixture?: keyof typeof f; spec?: RequestSpec }> = [
        {
          label: 'GET /customers/{customerId}',
          fixture: 'customerId',
          ...(f.customerId !== undefined ? { spec: { method: 'GET', path: `/customers/${f.customerId}` } } : {}),
        },
        {
          label: 'GET /accounts?customerId',
          fixture: 'customerId',
          ...(f.customerId !== undefined
            ? { spec: { method: 'GET', path: '/accounts', query: { customerId: f.customerId } } }
            : {}),
        },
        {
          label: 'GET /accounts/{accountId}',
          fixture: 'accountId',
          ...(f.accountId !== undefined ? { spec: { method: 'GET', path: `/accounts/${f.accountId}` } } : {}),
        },
        {
          label: 'GET /instruments?investmentType=INTERNATIONAL_STOCKS',
          spec: { method: 'GET', path: '/instruments', query: { investmentType: 'INTERNATIONAL_STOCKS' } },
        },
        {
          label: 'GET /assets/{assetId}',
          fixture: 'assetId',
          ...(f.assetId !== undefined ? { spec: { method: 'GET', path: `/assets/${f.assetId}` } } : {}),
        },
        {
          label: 'GET /transactions?customerId',
          fixture: 'customerId',
          ...(f.customerId !== undefined
            ? { spec: { method: 'GET', path: '/transactions', query: { customerId: f.customerId } } }
            : {}),
        },
        {
          label: 'GET /transactions/{transactionId}',
          fixture: 'transactionId',
          ...(f.transactionId !== undefined
            ? { spec: { method: 'GET', path: `/transactions/${f.transactionId}` } }
            : {}),
        },
      ];
      const untried = candidates.filter((c) => !c.spec);
      if (untried.length > 0)
        ctx.observe(
          `not tried (fixture not configured): ${untried.map((c) => `${c.label} (fixtures.${c.fixture})`).join(', ')}`,
        );
      await withTokens(ctx, async (jar) => {
        const { token } = await jar.issue();
        const refused = [];
        for (const c of candidates) {
          if (!c.spec) continue;
          const res = await ctx.send({ ...c.spec, token });
          // Only 401 and 403 say the token was refused; anything else is about the resource, which the resources suite judges.
          if (res.status === 401 || res.status === 403) refused.push({ label: c.label, res });
          else if (!isSuccess(res)) ctx.observe(`${c.label} answered ${res.status}: not a refusal of the token`);
        }
        const first = refused[0];
        if (first) {
          ctx.fail(
            `a fresh token of this client was refused on ${refused.map((r) => `${r.label} (${r.res.status})`).join(', ')}`,
            {
              expected: 'no 401 or 403 on any read endpoint: every token has the read scope',
              observed: describeResponse(first.res),
              exchange: first.res.exchange,
            },
          );
        }
        for (const c of candidates) if (c.spec) ctx.judged(c.label);
      });
    },
  }),
];
