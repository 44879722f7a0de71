// Area `auth.token`: issuing a token (spec "Auth token record", "Authentication endpoints"): the record's shape and
// fields, the token requests that must give no token, and the open points of the token answer.
import {
  cite,
  coveredComponents,
  describeResponse,
  dropHeader,
  expectNoToken,
  expectSuccess,
  isSuccess,
  observedResourceTimestampUnit,
  resourceTimestampUnit,
  readProbe,
  requestToken,
  tokenIn,
  withTokens,
  judgeObserved,
  type IssuedToken,
  type TimestampUnit,
  type TokenResult,
} from '../kit/index.js';
import { randomBytes } from 'node:crypto';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  TOKEN_RECORD_FIELDS,
  TOKEN_TTL_SECONDS,
  judgeTokenAnswer,
  judgeTokenFields,
  judgeTokenTimes,
  judgeTrustedIps,
  presentField,
  scopesOf,
  observedTokenAnswers,
  observedTokens,
  observedTokensWith,
} from './helpers/token-record.js';
import { NO_TOKEN, RUN_TOKEN_AGAIN, tokenSpec } from './helpers/token-requests.js';
import { confirmNewTokenEndsOlder } from './helpers/older-tokens.js';

/** Where the token record came and where its message is (REQ-TOKEP-06: the envelope of the token answer is not shown). */
function envelopeReading(found: TokenResult): string {
  if (!found.enveloped) return 'without an envelope (the bare record)';
  if (found.message === 'record') return 'inside the {data, code, message} envelope, with a message of its own';
  if (found.message === 'envelope')
    return "inside the {data, code, message} envelope, without a message of its own: the envelope's message is the record's";
  return 'inside the {data, code, message} envelope, and no message in the record or the envelope';
}

/** The configured secret with its last character replaced: wrong, yet as long and as alike as a wrong secret can be. */
function wrongSecret(secret: string): string {
  const last = secret.slice(-1);
  return `${secret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

export const tokenIssued = defineCheck({
  id: 'auth.token.issued',
  title: 'valid client credentials give a token, in a record of the shape the table states',
  level: 'MUST',
  requirements: [
    'REQ-SVC-01',
    'REQ-TOKEN-03',
    'REQ-TOKEN-09',
    'REQ-LIFE-01',
    'REQ-TOKEP-01',
    'REQ-TOKEP-04',
    'REQ-TOKEP-05',
  ],
  note: 'The "Auth token record" table has no Required column and states few types: a token is what the request issues (MUST), and organization, where present, is "Object with id, name, clientId" (MUST). That every field is there is auth.token.fields\' (SHOULD); tokenType, scope, trustedIps, expiresIn and the timestamps have checks of their own.',
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes:
      'a 2xx answer with a token record (bare, or inside the {data, code, message} envelope) carrying a token, a non-empty string, and, where it has one, an organization that is an object with id, name and clientId; a field left out is left to auth.token.fields, and tokenType, scope, trustedIps, expiresIn, createdAt and updatedAt to their own checks',
    fails:
      'another status, a body that is not JSON, no token record, an empty token, or an organization that is not an object with id, name and clientId (the report names it): the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const res = await requestToken(ctx);
      const found = tokenIn(res);
      if (found) await jar.keep(found.token);
      expectSuccess(ctx, res, 'a 2xx answer carrying a token record');
      judgeTokenAnswer(ctx, res);
    });
  },
  // Observed traffic: every 2xx answer of POST /oauth/token (a refusal is the refusal checks' to judge).
  async observe(ctx) {
    for (const res of observedTokenAnswers(ctx)) judgeObserved(ctx, res, () => judgeTokenAnswer(ctx, res));
  },
});

export const tokenFields = defineCheck({
  id: 'auth.token.fields',
  title: 'the token record carries every field of the table (message a string, tokenId a string or an integer)',
  level: 'SHOULD',
  requirements: ['REQ-TOKEP-10', 'REQ-TOKEN-01', 'REQ-TOKEN-05'],
  note: '"an auth token record (fields above)" names no field as required and the table has no Required column, so that every field is there is the only reasonable reading of the Result line, not its words; so are the types of message and tokenId, which the table does not give.',
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes: `the token record (bare, or inside the {data, code, message} envelope) carries every field of the "Auth token record" table (${TOKEN_RECORD_FIELDS.join(', ')}); in an enveloped answer, a record in data without a message of its own has the envelope's message (one answer, one message; a bare record must carry it); message is a string and tokenId a string or an integer`,
    fails: 'a field left out (the report names which), or a message or tokenId of another type: the check warns',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => judgeTokenFields(ctx, await jar.issue()));
  },
  // Observed traffic: every token record the traffic holds.
  async observe(ctx) {
    const tokens = observedTokens(ctx);
    if (tokens.length === 0) ctx.skip('the traffic holds no token record');
    for (const issued of tokens) judgeTokenFields(ctx, issued);
  },
});

export const tokenUnique = defineCheck({
  id: 'auth.token.unique',
  title: 'two different tokens carry two different tokenIds',
  level: 'MUST',
  requirements: ['REQ-TOKEN-02'],
  explain: {
    sends: 'two token requests (POST /oauth/token); both tokens are revoked afterwards',
    passes:
      'the two tokens carry two different tokenIds, or the server answered both with the same token (one token per client, so one tokenId)',
    fails:
      'two different tokens with the same tokenId: the check fails; a record without tokenId is skipped (auth.token.fields judges its presence)',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const first = await jar.issue();
      const second = await jar.issue();
      // One token per client, handed out again, is a reading the suite accepts (auth.token.response-shape and the
      // TokenJar cope with it): the same token may well keep its tokenId.
      if (first.token === second.token) {
        ctx.observe('both token requests were answered with the same token: one token per client, so one tokenId');
        return ctx.judged('two token answers, one token');
      }
      const a = presentField(ctx, first, 'tokenId');
      const b = presentField(ctx, second, 'tokenId');
      if (JSON.stringify(a) === JSON.stringify(b)) {
        ctx.fail(`two different tokens both carry tokenId ${JSON.stringify(a)}`, {
          expected: 'a tokenId of its own for each token: "Unique access token identifier"',
          observed: `first answer: ${describeResponse(first.res)}; second answer: ${describeResponse(second.res)}`,
          exchange: second.res.exchange,
        });
      }
      ctx.judged('the tokenIds of two tokens', 2);
    });
  },
  // Observed traffic: the tokenIds of every different token the traffic's token records hold.
  async observe(ctx) {
    const byToken = new Map(observedTokensWith(ctx, 'tokenId').map((t) => [t.token, t]));
    if (byToken.size < 2) ctx.skip('the traffic holds fewer than two different tokens with a tokenId');
    const byId = new Map<string, IssuedToken>();
    for (const issued of byToken.values()) {
      const id = JSON.stringify(issued.record.tokenId);
      const earlier = byId.get(id);
      if (earlier !== undefined) {
        cite(ctx, earlier.res);
        ctx.fail(`two different tokens both carry tokenId ${id}`, {
          expected: 'a tokenId of its own for each token: "Unique access token identifier"',
          observed: `exchange #${earlier.res.exchange.seq}: ${describeResponse(earlier.res)}; exchange #${issued.res.exchange.seq}: ${describeResponse(issued.res)}`,
          exchange: cite(ctx, issued.res),
        });
      }
      byId.set(id, issued);
    }
    ctx.judged('the tokenIds of different tokens', byToken.size);
  },
});

/** tokenType must be "Bearer", exactly. */
function judgeTokenType(ctx: CheckContext, issued: IssuedToken, type: unknown): void {
  if (type !== 'Bearer') {
    ctx.fail(`tokenType is ${JSON.stringify(type)}, not "Bearer"`, {
      expected: 'tokenType exactly "Bearer" (case included)',
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
    });
  }
  ctx.judged("the token record's tokenType");
}

export const tokenTypeBearer = defineCheck({
  id: 'auth.token.type-bearer',
  title: 'the token record says tokenType "Bearer", exactly, where it says one',
  level: 'MUST',
  requirements: ['REQ-TOKEN-06', 'REQ-TOKEP-04'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes: 'the token record says tokenType "Bearer", exactly (case included)',
    fails:
      'any other value ("bearer" included): the check fails; a record without tokenType is skipped (auth.token.fields judges its presence)',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const issued = await jar.issue();
      judgeTokenType(ctx, issued, presentField(ctx, issued, 'tokenType'));
    });
  },
  // Observed traffic: every token record the traffic holds that says a tokenType.
  async observe(ctx) {
    for (const issued of observedTokensWith(ctx, 'tokenType')) judgeTokenType(ctx, issued, issued.record.tokenType);
  },
});

/** scope holds both read and write, as a list of names or one string of them. */
function judgeScope(ctx: CheckContext, issued: IssuedToken, raw: unknown): void {
  const scopes = scopesOf(raw);
  const missing = ['read', 'write'].filter((s) => !scopes?.includes(s));
  if (!scopes || missing.length > 0) {
    ctx.fail(
      scopes
        ? `scope lacks ${missing.join(' and ')}`
        : `scope is ${JSON.stringify(raw)}: neither a list of names nor a string of names`,
      {
        expected:
          'scope with both "read" and "write" (an array of names, or one space-separated string: its type is not shown)',
        observed: describeResponse(issued.res),
        exchange: cite(ctx, issued.res),
      },
    );
  }
  ctx.judged("the token record's scope");
}

export const tokenScope = defineCheck({
  id: 'auth.token.scope',
  title: "the token record's scope, where present, holds both read and write",
  level: 'MUST',
  requirements: ['REQ-TOKEN-07', 'REQ-AUTH-10'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes:
      'the token record\'s scope holds both "read" and "write", as an array of names or one space- or comma-separated string (its type is not shown)',
    fails:
      'a scope without read or without write, or a value that is neither a list nor a string of names: the check fails; a record without scope is skipped (auth.token.fields judges its presence)',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const issued = await jar.issue();
      judgeScope(ctx, issued, presentField(ctx, issued, 'scope'));
    });
  },
  // Observed traffic: every token record the traffic holds that carries a scope.
  async observe(ctx) {
    for (const issued of observedTokensWith(ctx, 'scope')) judgeScope(ctx, issued, issued.record.scope);
  },
});

export const tokenOrganization = defineCheck({
  id: 'auth.token.organization',
  title: "the token record's organization.clientId is the client that asked for the token",
  level: 'SHOULD',
  requirements: ['REQ-TOKEN-10'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes: "the token record's organization.clientId is the configured client id",
    fails:
      'another clientId in it: the check warns; a record without organization is skipped (auth.token.fields judges its presence), and so is an organization that is not an object with a clientId (auth.token.issued judges its shape)',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const issued = await jar.issue();
      const org = presentField(ctx, issued, 'organization');
      if (typeof org !== 'object' || org === null || Array.isArray(org) || !('clientId' in org)) {
        ctx.alsoSee({
          requirements: ['REQ-TOKEN-09'],
          ownedBy: 'auth.token.issued',
          message: `organization is ${JSON.stringify(org)}: not an object with id, name and clientId`,
          exchange: issued.res.exchange,
        });
        ctx.skip('organization is not an object with a clientId; auth.token.issued judges its shape');
      }
      const clientId = (org as Record<string, unknown>).clientId;
      if (clientId !== ctx.credentials.clientId) {
        ctx.fail(
          `organization.clientId is ${JSON.stringify(clientId)}, not the configured client id ${JSON.stringify(ctx.credentials.clientId)}`,
          {
            expected: `organization.clientId ${JSON.stringify(ctx.credentials.clientId)}: the token was issued to that client`,
            observed: describeResponse(issued.res),
            exchange: issued.res.exchange,
          },
        );
      }
      ctx.judged("the token record's organization");
    });
  },
});

export const tokenTrustedIps = defineCheck({
  id: 'auth.token.trusted-ips',
  title: "the token record's trustedIps, where present, is a list of addresses",
  level: 'MUST',
  requirements: ['REQ-TOKEN-08', 'REQ-AUTH-11'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes: "the token record's trustedIps is an array of strings (possibly empty)",
    fails:
      'anything but an array of strings: the check fails; a record without trustedIps is skipped (auth.token.fields judges its presence)',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const issued = await jar.issue();
      judgeTrustedIps(ctx, issued, presentField(ctx, issued, 'trustedIps'));
    });
  },
  // Observed traffic: every token record the traffic holds that carries trustedIps.
  async observe(ctx) {
    for (const issued of observedTokensWith(ctx, 'trustedIps')) judgeTrustedIps(ctx, issued, issued.record.trustedIps);
  },
});

/** Fails when the token record counts another unit than the server's resources, where those count one. */
function judgeTokenUnit(
  ctx: CheckContext,
  issued: IssuedToken,
  created: TimestampUnit,
  server: { unit: TimestampUnit | undefined; text: string },
): void {
  if (server.unit === undefined || created === server.unit) return;
  ctx.fail(
    `the token record's createdAt and updatedAt count ${created}, while the server's other timestamps count ${server.unit} (${server.text})`,
    {
      expected: `the token record's times in the unit the server's resources count (${server.unit}): one server, one meaning of "Unix timestamp"`,
      observed: describeResponse(issued.res),
      exchange: cite(ctx, issued.res),
    },
  );
}

export const tokenTimestamps = defineCheck({
  id: 'auth.token.timestamps',
  title:
    "the token record's createdAt and updatedAt are Unix times near the time of issue, in the unit the server's other timestamps count",
  level: 'MUST',
  requirements: ['REQ-TOKEN-11', 'REQ-TOKEN-12'],
  note: '"Unix timestamp" names no unit (REQ-CUST-09): seconds and milliseconds are both readings, and the check learns which one the server took from the timestamps of its instruments. The token record counts in that unit too: one server, one meaning of "Unix timestamp".',
  explain: {
    sends:
      "GET /instruments?investmentType=INTERNATIONAL_STOCKS (to learn the unit the server's timestamps count), then one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards",
    passes:
      "the token record's createdAt and updatedAt are integers within a day of the moment the token was asked for, both counted in seconds or both in milliseconds, and in the unit the server's instruments count (where those count one)",
    fails:
      "one that is not an integer, one near that moment in neither unit (microseconds, another origin), the two in different units, or in another unit than the server's other timestamps: the check fails",
  },
  async run(ctx) {
    const server = await resourceTimestampUnit(ctx);
    await withTokens(ctx, async (jar) => {
      const askedMs = Date.now();
      const issued = await jar.issue();
      const created = judgeTokenTimes(ctx, issued, askedMs, (field) => presentField(ctx, issued, field));
      judgeTokenUnit(ctx, issued, created, server);
      ctx.judged("the token record's createdAt and updatedAt");
      ctx.observe(
        `the token record's createdAt and updatedAt count ${created}${server.unit === undefined ? `; the unit of the server's other timestamps was not compared (${server.text})` : `, as the server's instruments do`}`,
      );
    });
  },
  // Observed traffic: every token record with both times, against the moment its request was sent (the traffic's
  // time), and in the unit the items of the traffic's list answers count, where they count one (whether they do is
  // resources.timestamps.unix' to judge).
  async observe(ctx) {
    const timed = observedTokensWith(ctx, 'createdAt').filter(
      (t) => t.record.updatedAt !== undefined && t.res.exchange.startedAt !== undefined,
    );
    if (timed.length === 0)
      ctx.skip('no token record of the traffic has both createdAt and updatedAt and a time its request was sent at');
    const server = observedResourceTimestampUnit(ctx);
    const units = new Set(
      timed.map((t) => {
        const created = judgeTokenTimes(ctx, t, Date.parse(t.res.exchange.startedAt!), (f) => t.record[f]);
        judgeTokenUnit(ctx, t, created, server);
        return created;
      }),
    );
    ctx.judged("the token records' createdAt and updatedAt", timed.length);
    ctx.observe(
      `the token records' createdAt and updatedAt count ${[...units].join(' and ')}${server.unit === undefined ? `; the unit of the server's other timestamps was not compared (${server.text})` : `, as the server's resources do (${server.text})`}`,
    );
  },
});

export const tokenMissingDigest = defineCheck({
  id: 'auth.token.missing-digest',
  title: 'a token request without Content-Digest gives no token',
  level: 'SHOULD',
  requirements: ['REQ-HDR-23'],
  explain: {
    sends:
      'a token request with the right credentials, signed over every component but content-digest, and sent without Content-Digest',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const spec = tokenSpec(ctx);
      // Signed without content-digest, then the header dropped: the signature is valid for the request as sent.
      const components = (await coveredComponents(ctx, spec)).filter((c) => c !== 'content-digest');
      const res = await ctx.send({
        ...spec,
        sign: { components },
        tamper: (req) => dropHeader(req, 'Content-Digest'),
      });
      await expectNoToken(
        ctx,
        jar,
        res,
        `${NO_TOKEN}: right credentials, signed, but the form body has no Content-Digest`,
      );
      ctx.judged('the answer to a token request without Content-Digest');
    });
  },
});

export const tokenResponseShape = defineCheck({
  id: 'auth.token.response-shape',
  title: 'how the token answer is shaped: status code, with or without the {data, code, message} envelope',
  level: 'INFO',
  requirements: ['REQ-TOKEP-06'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes:
      "always, once the answer could be read: the check records the status of the token answer, whether the token record comes inside the {data, code, message} envelope or bare, whether an enveloped record has a message of its own or the envelope's, and the type of scope (an array or a string)",
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const res = await requestToken(ctx);
      const found = tokenIn(res);
      if (!found)
        return ctx.skip(
          `the token request answered ${res.status} without a token record: no shape to record; auth.token.issued judges it`,
        );
      await jar.keep(found.token);
      ctx.observe(`status ${res.status}; token record ${envelopeReading(found)}`);
      ctx.judged('the token answer');
      // The type of scope is not shown either (REQ-TOKEN-07): the reading the server took, on record.
      ctx.observe(scopeReading(found.record.scope));
    });
  },
  // Observed traffic: every 2xx token answer with a token record, each shape and scope type recorded once.
  async observe(ctx) {
    const tokens = observedTokens(ctx);
    if (tokens.length === 0) ctx.skip('the traffic holds no 2xx answer of POST /oauth/token with a token record');
    for (const reading of new Set(tokens.map((t) => `status ${t.res.status}; token record ${envelopeReading(t)}`)))
      ctx.observe(reading);
    for (const reading of new Set(tokens.map((t) => scopeReading(t.record.scope)))) ctx.observe(reading);
    ctx.judged('a token answer', tokens.length);
  },
});

function scopeReading(scope: unknown): string {
  return `scope (its type is not shown): ${Array.isArray(scope) ? 'an array' : typeof scope === 'string' ? 'a string' : `a value of type ${scope === null ? 'null' : typeof scope}`}, ${JSON.stringify(scope) ?? 'missing'}`;
}

// ---- token requests that must not give a token --------------------------------------------------------------
export const tokenWrongSecret = defineCheck({
  id: 'auth.token.wrong-secret',
  title: 'a token request with a wrong clientSecret gives no token',
  level: 'MUST',
  requirements: ['REQ-LIFE-01'],
  explain: {
    sends: 'a token request, signed, whose clientSecret differs from the configured one in its last character only',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const res = await ctx.send(
        tokenSpec(ctx, {
          form: { clientId: ctx.credentials.clientId, clientSecret: wrongSecret(ctx.credentials.clientSecret) },
        }),
      );
      await expectNoToken(ctx, jar, res, `${NO_TOKEN}: the secret differs from the client's in its last character`);
      ctx.judged('the answer to a token request with a wrong secret');
    });
  },
});

export const tokenUnknownClient = defineCheck({
  id: 'auth.token.unknown-client',
  title: 'a token request naming an unknown clientId gives no token',
  level: 'MUST',
  requirements: ['REQ-LIFE-01'],
  explain: {
    sends: 'a token request, signed, naming a made-up clientId that no client has, with the configured secret',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const unknown = `conformance-unknown-${randomBytes(6).toString('hex')}`;
      const res = await ctx.send(
        tokenSpec(ctx, { form: { clientId: unknown, clientSecret: ctx.credentials.clientSecret } }),
      );
      await expectNoToken(ctx, jar, res, `${NO_TOKEN}: clientId ${JSON.stringify(unknown)} names no client`);
      ctx.judged('the answer to a token request naming an unknown client');
    });
  },
});

export const tokenMissingSecret = defineCheck({
  id: 'auth.token.missing-secret',
  title: 'a token request without clientSecret gives no token',
  level: 'MUST',
  requirements: ['REQ-LIFE-01'],
  explain: {
    sends: 'a token request, signed, whose form carries clientId only',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const res = await ctx.send(tokenSpec(ctx, { form: { clientId: ctx.credentials.clientId } }));
      await expectNoToken(ctx, jar, res, `${NO_TOKEN}: the form carries clientId only`);
      ctx.judged('the answer to a token request without clientSecret');
    });
  },
});

export const tokenUnsigned = defineCheck({
  id: 'auth.token.unsigned',
  title: 'a token request without Signature and Signature-Input gives no token',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'a token request with the right credentials, without Signature and Signature-Input',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const res = await ctx.send(tokenSpec(ctx, { sign: false }));
      await expectNoToken(ctx, jar, res, `${NO_TOKEN}: right credentials, but the request is not signed`);
      ctx.judged('the answer to an unsigned token request');
    });
  },
});

export const tokenWrongDigest = defineCheck({
  id: 'auth.token.wrong-digest',
  title: 'a token request whose Content-Digest does not match its body gives no token',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'a token request with the right credentials, signed, whose two form fields were swapped after signing: the same length and meaning, but no longer the bytes its Content-Digest describes',
    passes: 'the server rejects it (any 4xx) and issues no token',
    fails:
      'a token in the answer (revoked at once; the report says whether that worked), a 2xx, or a 5xx: the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      // The same two fields in the other order: same length and same meaning, other bytes. The signature (over the
      // headers, digest included) stays valid, so only a server that checks the digest against the body notices.
      const res = await ctx.send(
        tokenSpec(ctx, {
          tamper(req) {
            const form = new TextDecoder().decode(req.body);
            req.body = new TextEncoder().encode(form.split('&').reverse().join('&'));
          },
        }),
      );
      await expectNoToken(
        ctx,
        jar,
        res,
        `${NO_TOKEN}: the body (the same fields, reordered after signing) does not match its Content-Digest`,
      );
      ctx.judged('the answer to a token request whose digest does not match');
    });
  },
});

export const tokenOlderTokens = defineCheck({
  id: 'auth.token.older-tokens',
  title: "whether a new token ends the client's older tokens",
  level: 'INFO',
  requirements: ['REQ-LIFE-05'],
  explain: {
    sends:
      'a fresh token shown to work on a read, a second token request, then the first token on the read again; where the first is refused, a third token request and the second on the read again',
    passes:
      'always, once the answer could be read: the check records whether the second token ended the first (a 401), left it working, or was the same token handed out again',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const probe = readProbe(ctx);
      const older = await jar.issue();
      if (await jar.isRunToken(older.token)) ctx.skip(RUN_TOKEN_AGAIN);
      const first = await ctx.send({ ...probe, token: older.token });
      if (!isSuccess(first))
        return ctx.skip(
          `the fresh token was not accepted to begin with (${describeResponse(first)}); auth.use.read-endpoints judges it`,
        );
      const newer = await jar.issue();
      ctx.judged('the second token answer');
      if (newer.token === older.token)
        return ctx.observe(
          'the second token request was answered with the same token: one token per client, and older tokens keep working',
        );
      const after = await ctx.send({ ...probe, token: older.token });
      if (after.status !== 401) {
        return ctx.observe(
          isSuccess(after)
            ? `older tokens keep working: the first token was still accepted (${after.status}) once a second was issued`
            : `once a second token was issued, a read with the first answered ${describeResponse(after)}`,
        );
      }
      jar.forget(older.token);
      const newest = await ctx.send({ ...probe, token: newer.token });
      ctx.judged('a read with the second token');
      if (!isSuccess(newest))
        return ctx.observe(
          `both tokens were refused once the second was issued (the second: ${describeResponse(newest)}): the server ended every token (a restart?)`,
        );
      await confirmNewTokenEndsOlder(
        ctx,
        jar,
        newer.token,
        'the first token was refused (401) once a second was issued',
      );
      ctx.observe(
        'a new token ends the older ones: the first token was refused (401) once a second was issued, and the second works (and was refused in turn once a third was issued)',
      );
    });
  },
});

export const tokenMaxTtl = defineCheck({
  id: 'auth.token.max-ttl',
  title: "what the token record's maxTTL holds (value and unit not shown)",
  level: 'INFO',
  requirements: ['REQ-LIM-06'],
  explain: {
    sends:
      'one token request as a correct client sends it (POST /oauth/token with the configured clientId and clientSecret, form-encoded and signed); the token is revoked afterwards',
    passes:
      "always, once the answer could be read: the check records what the token record's maxTTL holds, whether it reads as the 60 minutes in seconds or in minutes, beside expiresIn",
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      const issued = await jar.issue();
      const value = issued.record.maxTTL;
      if (value === undefined)
        return ctx.skip('the token record has no maxTTL: no value to record; auth.token.fields judges its presence');
      ctx.judged("the token record's maxTTL");
      const reading =
        value === TOKEN_TTL_SECONDS
          ? ' (the 60 minutes in seconds)'
          : value === 60
            ? ' (the 60 minutes in minutes)'
            : '';
      ctx.observe(`maxTTL ${JSON.stringify(value)}${reading}; expiresIn ${JSON.stringify(issued.record.expiresIn)}`);
    });
  },
});
