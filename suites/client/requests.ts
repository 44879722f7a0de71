// Client checks of area requests: the rules of "Common request rules" and "Authentication" that every request the
// client sends must keep, judged request by request over every scenario that ran (suites/client/kit.ts). Each check
// judges its own header and nothing else: a request refused for another check's rule is still judged here on this
// one (its headers are what they are), so a broken client fails the check that owns its defect and no other.
// Each also judges the client's requests in observed traffic (`observe`: `conformance judge`, `conformance proxy`) with
// the same function; what the traffic's source masked is not judged, and a rule that needs what only a scenario knows
// (the tokens the server issued, the client's key when none is given) is judged as far as the traffic shows.
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import { coversTarget, requiredComponentsFor, verifyContentDigest } from '../kit/index.js';
import { cite, observedTraffic, scenariosRun, stopWhenBlocked, type ClientRequest, type ClientTraffic } from './kit.js';
import {
  bearerOf,
  header,
  headers,
  isRevoke,
  isTokenRequest,
  issuedTokens,
  judgeEach,
  named,
  NOT_JUDGED,
  pathOf,
  succeeded,
  verifySig1,
  withheldHeader,
} from './traffic.js';

/** How far `created` may be from the request's arrival: clock skew between the client's machine and the server's. */
const CREATED_SKEW_SECONDS = 60;
/** The longest validity window (expires − created) a client should sign: the project's own client signs 300 s. */
const MAX_WINDOW_SECONDS = 300;

interface Subject {
  record: ClientTraffic;
  request: ClientRequest;
}

/** Every request of every scenario that ran, with its scenario's record; `which` narrows them. */
function subjects(ctx: CheckContext, which: (r: ClientRequest) => boolean = () => true): Subject[] {
  const all = scenariosRun(ctx).flatMap((record) => record.requests.map((request) => ({ record, request })));
  const chosen = all.filter((s) => which(s.request));
  // Nothing to judge: say whether another check's defect cut the flows short before skipping.
  if (chosen.length === 0)
    stopWhenBlocked(
      ctx,
      all.map((s) => s.request),
    );
  return chosen;
}

/** The requests of observed traffic, with what is known of the client; `which` narrows them. */
function observedSubjects(ctx: CheckContext, which: (r: ClientRequest) => boolean = () => true): Subject[] {
  const record = observedTraffic(ctx);
  return record.requests.filter(which).map((request) => ({ record, request }));
}

function isMutating(r: ClientRequest): boolean {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method.toUpperCase());
}

const signed = defineCheck({
  id: 'client.requests.signed',
  title: 'Every request carries a sig1 signature that verifies with the client key and keyid',
  level: 'MUST',
  requirements: ['REQ-HDR-04', 'REQ-HDR-05', 'REQ-AUTH-05', 'REQ-AUTH-07', 'REQ-AUTH-08', 'REQ-USSD-02'],
  explain: {
    sends:
      'Nothing: reads every request the client sent in every scenario that ran (the token request, reads, updates, revocations, USSD, webhooks).',
    passes:
      'Each request carries Signature and Signature-Input with a signature labelled sig1, whose keyid is the key id handed to the client (CONFORMANCE_KEY_ID) and which verifies (RFC 9421, Ed25519) with that key over the components its Signature-Input lists.',
    fails:
      'A request without Signature or Signature-Input, a signature under another label than sig1, another keyid, or bytes that do not verify over the listed components (a request altered after signing, a wrong key, a wrong signature base). Which components are covered, and the created/expires window, are judged by client.requests.covers-headers and client.requests.signature-window.',
  },
  async run(ctx) {
    judgeSigned(ctx, subjects(ctx));
  },
  async observe(ctx) {
    const observed = observedSubjects(ctx);
    if (observedTraffic(ctx).publicKeyPem === undefined)
      ctx.skip(
        "not exercised: the client's public key was not given (a target's privateKeyPem, or its public key), so its signatures cannot be verified",
      );
    judgeSigned(ctx, observed);
  },
});

function judgeSigned(ctx: CheckContext, judged: Subject[]): void {
  judgeEach(
    ctx,
    judged,
    (record, r) => {
      if (withheldHeader(r, 'signature', 'signature-input')) return NOT_JUDGED;
      const verdict = verifySig1(record, r);
      if (verdict.ok) return undefined;
      return {
        message: `its signature does not verify (${verdict.code}: ${verdict.reason})`,
        expected: `Signature and Signature-Input labelled sig1, keyid ${record.keyId !== undefined ? JSON.stringify(record.keyId) : 'of the key given'}, verifying with the client's Ed25519 key over the components listed`,
        observed: `Signature-Input: ${header(r, 'signature-input') ?? '(none)'}; ${verdict.code}: ${verdict.reason}`,
      };
    },
    'the client sent no request',
    'none whose Signature and Signature-Input the traffic kept (masked at the source)',
  );
}

const coversHeaders = defineCheck({
  id: 'client.requests.covers-headers',
  title: 'Every signature covers @method, the target and every listed header the request carries',
  level: 'MUST',
  requirements: ['REQ-HDR-17', 'REQ-HDR-15'],
  explain: {
    sends: 'Nothing: reads the Signature-Input of every signed request the client sent in every scenario that ran.',
    passes:
      'The sig1 component list of each request covers @method, the target (@target-uri, or @path together with @query when the request has a query) and every header of the spec\'s list the request carries (authorization, content-digest, content-length, content-type, x-client-id, x-idempotency-key; a "Content-Length: 0" an HTTP stack adds to a body-less request is exempt).',
    fails:
      "A signature that leaves out @method, the target, the query of a request that has one, or a listed header the request carries (e.g. a POST whose signature does not cover its content-digest). Requests without a readable sig1 signature are client.requests.signed's.",
  },
  async run(ctx) {
    judgeCovers(
      ctx,
      subjects(ctx, (r) => header(r, 'signature-input') !== undefined),
    );
  },
  async observe(ctx) {
    judgeCovers(
      ctx,
      observedSubjects(ctx, (r) => header(r, 'signature-input') !== undefined && !withheldHeader(r, 'signature-input')),
    );
  },
});

function judgeCovers(ctx: CheckContext, readable: Subject[]): void {
  judgeEach(
    ctx,
    readable,
    (record, r) => {
      const required = requiredComponentsFor(r.headers, r.body.length);
      const verdict = verifySig1(record, r, required);
      const components = verdict.components;
      if (components === undefined) return NOT_JUDGED;
      const listed = `(${components.map((c) => JSON.stringify(c)).join(' ')})`;
      const missing = required.filter((c) => !components.includes(c));
      const hasQuery = new URL(r.url).search !== '';
      if (!coversTarget(components, hasQuery))
        missing.push(hasQuery ? '@target-uri (or @path and @query)' : '@target-uri (or @path)');
      if (missing.length === 0) return undefined;
      return {
        message: `its signature does not cover ${missing.join(', ')}`,
        expected: `the components cover ${required.join(', ')} and the target (@target-uri, or @path${hasQuery ? ' with @query' : ''})`,
        observed: `covered: ${listed}`,
      };
    },
    'no request carried a Signature-Input',
    'none with a sig1 signature whose component list could be read (client.requests.signed judges them)',
  );
}

const signatureWindow = defineCheck({
  id: 'client.requests.signature-window',
  title: 'Every signature is created about when it is sent and expires within a short window',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-09'],
  explain: {
    sends:
      'Nothing: reads the created and expires parameters of every signed request, against when the sandbox received it.',
    passes: `Each sig1 signature carries created and expires as integers; created is within ${CREATED_SKEW_SECONDS} s of the request's arrival (either way: clock skew); expires is after created and not before the arrival (the signature is valid when it arrives); the window expires − created is at most ${MAX_WINDOW_SECONDS} s.`,
    fails: `A signature without created or expires, created more than ${CREATED_SKEW_SECONDS} s before or after arrival (a signature made once and reused, or a wrong clock), already expired on arrival, expiring before it was created, or valid for more than ${MAX_WINDOW_SECONDS} s (a long-lived signature is a replayable one).`,
  },
  async run(ctx) {
    judgeWindow(
      ctx,
      subjects(ctx, (r) => header(r, 'signature-input') !== undefined),
    );
  },
  async observe(ctx) {
    judgeWindow(
      ctx,
      observedSubjects(ctx, (r) => header(r, 'signature-input') !== undefined && !withheldHeader(r, 'signature-input')),
    );
  },
});

/** In observed traffic the time a request was sent stands for its arrival; a request without one is not judged. */
function judgeWindow(ctx: CheckContext, signedRequests: Subject[]): void {
  judgeEach(
    ctx,
    signedRequests,
    (record, r) => {
      const params = verifySig1(record, r).params;
      if (params === undefined || !Number.isFinite(r.receivedAt)) return NOT_JUDGED;
      const arrival = Math.floor(r.receivedAt / 1000);
      const { created, expires } = params;
      const expected = `integer created within ${CREATED_SKEW_SECONDS} s of arrival (${arrival}), expires after created and not before arrival, expires − created ≤ ${MAX_WINDOW_SECONDS} s`;
      const observed = `created=${String(created)}; expires=${String(expires)}; arrived ${arrival}`;
      const defect = (message: string) => ({ message, expected, observed });
      if (typeof created !== 'number' || !Number.isInteger(created))
        return defect('its signature has no integer created');
      if (typeof expires !== 'number' || !Number.isInteger(expires))
        return defect('its signature has no integer expires');
      if (Math.abs(created - arrival) > CREATED_SKEW_SECONDS)
        return defect(`created is ${created - arrival} s from its arrival (more than ${CREATED_SKEW_SECONDS} s)`);
      if (expires <= created) return defect('expires is not after created');
      if (expires < arrival) return defect(`it had expired ${arrival - expires} s before it arrived`);
      if (expires - created > MAX_WINDOW_SECONDS)
        return defect(`its window is ${expires - created} s (more than ${MAX_WINDOW_SECONDS} s)`);
      return undefined;
    },
    'no request carried a Signature-Input',
    'none with a sig1 signature whose parameters could be read (client.requests.signed judges them)',
  );
}

const digest = defineCheck({
  id: 'client.requests.digest',
  title: 'Every request with a body carries a correct Content-Digest sha-512',
  level: 'MUST',
  requirements: ['REQ-HDR-08', 'REQ-AUTH-06'],
  explain: {
    sends:
      'Nothing: reads every request with a body (the token request, PUT /customers, POST or PUT /webhooks, …), and any other that carries a Content-Digest, in every scenario that ran.',
    passes:
      'Each carries Content-Digest with a sha-512 member (`sha-512=:<base64>:`, RFC 9530) equal to the sha-512 of the body bytes the sandbox received.',
    fails:
      'A body without Content-Digest, a digest of other bytes (the body changed after it was digested, or a digest of another encoding), a digest with another algorithm only (sha-256), or a malformed field.',
  },
  async run(ctx) {
    judgeDigest(
      ctx,
      subjects(ctx, (r) => r.body.length > 0 || header(r, 'content-digest') !== undefined),
    );
  },
  async observe(ctx) {
    judgeDigest(
      ctx,
      observedSubjects(ctx, (r) => r.body.length > 0 || header(r, 'content-digest') !== undefined),
    );
  },
});

/** A body the traffic's source did not keep is not judged. */
function judgeDigest(ctx: CheckContext, withBody: Subject[]): void {
  judgeEach(
    ctx,
    withBody,
    (_record, r) => {
      if (r.withheld?.body === true) return NOT_JUDGED;
      const field = header(r, 'content-digest');
      const verdict = verifyContentDigest(field, r.body);
      if (verdict.ok) return undefined;
      return {
        message: verdict.reason,
        expected: `Content-Digest: sha-512=:<base64 of the sha-512 of the ${r.body.length}-byte body>:`,
        observed: `Content-Digest: ${field ?? '(none)'}`,
      };
    },
    'no request carried a body',
    'none whose body the traffic kept (saved without bodies)',
  );
}

const clientId = defineCheck({
  id: 'client.requests.client-id',
  title: 'X-Client-Id names the client on every request but the token request',
  level: 'MUST',
  requirements: ['REQ-HDR-07'],
  explain: {
    sends: 'Nothing: reads the X-Client-Id of every request the client sent in every scenario that ran.',
    passes:
      'Every request except POST /oauth/token carries exactly one X-Client-Id equal to the client id handed to it (CONFORMANCE_CLIENT_ID); the token request needs none, and one it carries names the same client.',
    fails:
      'A request other than the token request without X-Client-Id, with two, or with another value; a token request whose X-Client-Id names another client.',
  },
  async run(ctx) {
    judgeClientId(
      ctx,
      subjects(ctx, (r) => !isTokenRequest(r) || header(r, 'x-client-id') !== undefined),
    );
  },
  async observe(ctx) {
    judgeClientId(
      ctx,
      observedSubjects(ctx, (r) => !isTokenRequest(r) || header(r, 'x-client-id') !== undefined),
    );
  },
});

/** In observed traffic without the client's id given, one non-empty X-Client-Id is what can be judged. */
function judgeClientId(ctx: CheckContext, needing: Subject[]): void {
  judgeEach(
    ctx,
    needing,
    (record, r) => {
      const values = headers(r, 'x-client-id').map((v) => v.trim());
      const naming = record.clientId === undefined ? values[0] !== '' : values[0] === record.clientId;
      if (values.length === 1 && naming) return undefined;
      return {
        message:
          values.length === 0
            ? 'no X-Client-Id'
            : values.length > 1
              ? `${values.length} X-Client-Id headers`
              : record.clientId === undefined
                ? 'an empty X-Client-Id'
                : 'X-Client-Id names another client',
        expected: `X-Client-Id: ${record.clientId ?? "<the client's id>"}`,
        observed: values.length === 0 ? '(no X-Client-Id)' : values.map((v) => `X-Client-Id: ${v}`).join('; '),
      };
    },
    'the client sent no request that needs X-Client-Id',
  );
}

const authorization = defineCheck({
  id: 'client.requests.authorization',
  title: 'Authorization: Bearer with a token the sandbox issued, on every request but the token request',
  level: 'MUST',
  requirements: ['REQ-HDR-03', 'REQ-AUTH-02'],
  explain: {
    sends:
      'Nothing: reads the Authorization of every request but POST /oauth/token, and the token replies the sandbox gave the client earlier in the same scenario.',
    passes:
      "Each carries exactly one `Authorization: Bearer <token>` whose token the sandbox issued to this client in an earlier token reply of the scenario. A token that has since ended (renew) is still one issued to it: sending it again is client.renew.no-stale-token's to judge.",
    fails:
      'A request without Authorization, with two, with another scheme or form ("Token x", a bare token), or with a token the sandbox never issued to the client (made up, from another run, or sent before any token reply).',
  },
  async run(ctx) {
    judgeAuthorization(
      ctx,
      subjects(ctx, (r) => !isTokenRequest(r)),
    );
  },
  async observe(ctx) {
    judgeAuthorization(
      ctx,
      observedSubjects(ctx, (r) => !isTokenRequest(r)),
    );
  },
});

/**
 * In observed traffic the form is judged, not where the token came from: a token may have been issued before the
 * traffic began (and a server that did not issue it answers 401, which is the server's to judge).
 */
function judgeAuthorization(ctx: CheckContext, needing: Subject[]): void {
  judgeEach(
    ctx,
    needing,
    (record, r) => {
      if (withheldHeader(r, 'authorization')) return NOT_JUDGED;
      const values = headers(r, 'authorization');
      const issued = issuedTokens(record).filter((t) => t.seq < r.seq);
      const token = bearerOf(r);
      const expected =
        record.scenario === undefined
          ? 'one "Authorization: Bearer <token>"'
          : `one "Authorization: Bearer <token>" with a token the sandbox issued to the client before (${issued.length} issued so far in scenario ${record.scenario})`;
      const observed =
        values.length === 0 ? '(no Authorization)' : values.map(() => 'Authorization: [redacted]').join('; ');
      if (token === undefined)
        return {
          message:
            values.length === 0
              ? 'no Authorization'
              : values.length > 1
                ? `${values.length} Authorization headers`
                : 'Authorization is not "Bearer <token>"',
          expected,
          observed:
            values.length === 1 ? `Authorization: ${values[0]!.split(' ')[0]} … (not "Bearer <token>")` : observed,
        };
      if (record.scenario === undefined || issued.some((t) => t.token === token)) return undefined;
      return { message: 'its bearer token is not one the sandbox issued to the client', expected, observed };
    },
    'the client sent no request but the token request',
    'none whose Authorization the traffic kept (masked at the source)',
  );
}

const idempotencyKey = defineCheck({
  id: 'client.requests.idempotency-key',
  title: 'X-Idempotency-Key on every mutating request',
  level: 'MUST',
  requirements: ['REQ-TOKEP-03', 'REQ-TOKEP-08', 'REQ-CUSTEP-06', 'REQ-WHKEP-01'],
  explain: {
    sends:
      'Nothing: reads every POST, PUT, PATCH and DELETE the client sent (the token request, revocations, PUT /customers, POST or PUT /webhooks) in every scenario that ran.',
    passes:
      'Each carries one non-empty X-Idempotency-Key (the spelling the signed component list names; X-Idempotency-Id alone is a spelling a server need not accept).',
    fails: 'A mutating request without X-Idempotency-Key, with an empty one, or with two that differ.',
  },
  async run(ctx) {
    judgeIdempotencyKey(ctx, subjects(ctx, isMutating));
  },
  async observe(ctx) {
    judgeIdempotencyKey(ctx, observedSubjects(ctx, isMutating));
  },
});

function judgeIdempotencyKey(ctx: CheckContext, mutating: Subject[]): void {
  judgeEach(
    ctx,
    mutating,
    (_record, r) => {
      const keys = headers(r, 'x-idempotency-key').map((k) => k.trim());
      if (keys.length > 0 && keys[0] !== '' && keys.every((k) => k === keys[0])) return undefined;
      return {
        message:
          keys.length === 0
            ? 'no X-Idempotency-Key'
            : keys[0] === ''
              ? 'an empty X-Idempotency-Key'
              : 'X-Idempotency-Key headers that differ',
        expected: `${r.method} ${pathOf(r)} carries one non-empty X-Idempotency-Key`,
        observed:
          keys.length === 0
            ? `(no X-Idempotency-Key${header(r, 'x-idempotency-id') !== undefined ? '; X-Idempotency-Id only' : ''})`
            : keys.map((k) => `X-Idempotency-Key: ${JSON.stringify(k)}`).join('; '),
        requirements: [requirementOfMutation(r)],
      };
    },
    'the client sent no mutating request',
  );
}

/** Which endpoint's header list the mutating request breaks. */
function requirementOfMutation(r: ClientRequest): string {
  if (isTokenRequest(r)) return 'REQ-TOKEP-03';
  if (isRevoke(r)) return 'REQ-TOKEP-08';
  if (pathOf(r).startsWith('/webhooks')) return 'REQ-WHKEP-01';
  return 'REQ-CUSTEP-06';
}

const idempotencyUnique = defineCheck({
  id: 'client.requests.idempotency-unique',
  title: 'Never the same idempotency key for two different requests',
  level: 'MUST',
  requirements: ['REQ-HDR-21'],
  explain: {
    sends: 'Nothing: reads the X-Idempotency-Key of every request the client sent, across all the scenarios that ran.',
    passes:
      'No key is used for two different requests. The same key on a retry of a request that got no 2xx answer (same method, target and body bytes) is what the key is for, and passes; the same bytes again after a 2xx are a new request (a second token) and need a new key.',
    fails:
      'A key reused for another request ("unique string"): a fixed key, a counter that starts again in each process, the key of the token request sent again on the revocation. A server that deduplicates by key answers the second request with the first one\'s result (the second is lost), or refuses it.',
  },
  async run(ctx) {
    judgeIdempotencyUnique(
      ctx,
      subjects(ctx, (r) => headers(r, 'x-idempotency-key').length > 0),
    );
  },
  async observe(ctx) {
    judgeIdempotencyUnique(
      ctx,
      observedSubjects(ctx, (r) => headers(r, 'x-idempotency-key').length > 0),
    );
  },
});

function judgeIdempotencyUnique(ctx: CheckContext, keyed: Subject[]): void {
  if (keyed.length === 0) ctx.skip('no request carried X-Idempotency-Key');
  const last = new Map<string, ClientRequest>();
  for (const { request: r } of keyed) {
    const key = headers(r, 'x-idempotency-key')[0]!.trim();
    const earlier = last.get(key);
    last.set(key, r);
    if (earlier === undefined) continue;
    // A retry repeats a request whose outcome the client did not get: once it was answered 2xx, the same bytes again
    // are a new request (a second token), which the server may answer with the first one's result.
    const retry =
      !succeeded(earlier) && earlier.method === r.method && earlier.url === r.url && earlier.body.equals(r.body);
    if (retry) continue;
    cite(ctx, earlier);
    ctx.fail(`${named(r)} reuses the idempotency key of ${named(earlier)}, a different request`, {
      expected:
        'a new X-Idempotency-Key for each distinct request (the same key only on a retry of the same method, target and body)',
      observed: `X-Idempotency-Key: ${JSON.stringify(key)} on ${named(earlier)} and on ${named(r)}${earlier.url !== r.url ? '' : earlier.body.equals(r.body) ? ` (the same request again after a ${earlier.status})` : ' (other body)'}`,
      exchange: cite(ctx, r),
    });
  }
  ctx.judged('a request with X-Idempotency-Key', keyed.length);
}

export default defineSuite({
  name: 'client.requests',
  title: 'Client: requests',
  checks: [signed, coversHeaders, signatureWindow, digest, clientId, authorization, idempotencyKey, idempotencyUnique],
});
