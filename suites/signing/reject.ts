// signing.reject.*: the negative checks. Each sends a request that is right in every way but one and expects a
// rejection (any 4xx); the suite's header (index.ts) says which endpoints they use and why each has its level.
import { randomBytes, randomUUID } from 'node:crypto';
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  alterSignature,
  coveredComponents,
  customerBody,
  customerDifferences,
  describeResponse,
  dropHeader,
  expectRejection,
  generateEd25519,
  headerValue,
  isSuccess,
  nowSeconds,
  readCustomer,
  readCustomerOrSkip,
  relabelSignature,
  replaceBody,
  saveWebhook,
  sendWithControl,
  setHeader,
  signingProfile,
  withRestoredCustomer,
  withRestoredWebhook,
  withTokens,
  type CustomerSnapshot,
  type HttpResponse,
  type SignatureParam,
} from '../kit/index.js';
import { customerRead, INSTRUMENTS, putCurrent } from './helpers/requests.js';

/**
 * Sends the PUT: rejected, or failed with what it did to the customer. What it changed is put back whatever happened
 * (withRestoredCustomer), even when the check runs out of time; a pass has read the customer unchanged already.
 */
async function expectPutRejectedAndHarmless(
  ctx: CheckContext,
  before: CustomerSnapshot,
  send: () => Promise<HttpResponse>,
  expected: string,
): Promise<void> {
  await withRestoredCustomer(
    ctx,
    before,
    async () => {
      const res = await send();
      const { snapshot: after, res: read } = await readCustomer(ctx, before.customerId);
      const changed = after ? customerDifferences(before, after) : [];
      if (changed.length > 0) {
        ctx.fail(`${res.status}, and the tampered body was applied: ${changed.join('; ')}`, {
          expected: `${expected}, and the customer unchanged afterwards`,
          observed: `${describeResponse(res)}; then GET /customers/${before.customerId} shows ${changed.join('; ')}`,
          exchange: res.exchange,
        });
      }
      if (!after)
        ctx.observe(
          `could not read customer ${before.customerId} again afterwards (${describeResponse(read)}): whether anything was applied is unknown`,
        );
      expectRejection(ctx, res, expected);
      ctx.judged('the altered PUT and the customer after it');
    },
    { onlyAfterFailure: true },
  );
}

/** A GET path other than the customer read that also answers 2xx: the first fixture configured. */
function otherReadPath(ctx: CheckContext): string {
  const f = ctx.fixtures;
  if (f.otherCustomerId !== undefined) return `/customers/${f.otherCustomerId}`;
  if (f.accountId !== undefined) return `/accounts/${f.accountId}`;
  if (f.assetId !== undefined) return `/assets/${f.assetId}`;
  if (f.transactionId !== undefined) return `/transactions/${f.transactionId}`;
  return ctx.skip(
    'needs a second readable resource: configure fixtures.otherCustomerId (or accountId, assetId, transactionId)',
  );
}

/** The subscriptions of the webhook signing.reject.post-body-tampered asks for, should a faulty server create it. */
const QUIET = ['WEBHOOK.CREATED'];

const REJECTED = 'a rejection (any 4xx)';

/** Another label than the run's: the label-mismatch probe pairs a signature with an input of another name. */
function otherLabel(label: string): string {
  return label === 'sig2' ? 'sig3' : 'sig2';
}

// ---- the signature itself ----------------------------------------------------------------------------------------
export const missingSignature = defineCheck({
  id: 'signing.reject.missing-signature',
  title: 'a request without Signature is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A request without Signature, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const res = await ctx.send({ ...customerRead(ctx), tamper: (req) => dropHeader(req, 'Signature') });
    expectRejection(ctx, res, `${REJECTED}: Signature-Input is there, Signature is not`);
    ctx.judged('the answer to the altered request');
  },
});

export const missingSignatureInput = defineCheck({
  id: 'signing.reject.missing-signature-input',
  title: 'a request without Signature-Input is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A request without Signature-Input, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const res = await ctx.send({ ...customerRead(ctx), tamper: (req) => dropHeader(req, 'Signature-Input') });
    expectRejection(ctx, res, `${REJECTED}: Signature is there, Signature-Input is not`);
    ctx.judged('the answer to the altered request');
  },
});

export const alteredSignature = defineCheck({
  id: 'signing.reject.altered-signature',
  title: 'a request whose signature bytes were altered is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A request whose signature bytes were altered, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const res = await ctx.send({
      ...customerRead(ctx),
      tamper: (req) => setHeader(req.headers, 'Signature', alterSignature(headerValue(req.headers, 'signature')!)),
    });
    expectRejection(ctx, res, `${REJECTED}: one bit of the signature was flipped`);
    ctx.judged('the answer to the altered request');
  },
});

export const wrongKey = defineCheck({
  id: 'signing.reject.wrong-key',
  title: "a request signed with another Ed25519 key under the client's keyid is rejected",
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      "A request signed with another Ed25519 key under the client's keyid, correct in every other respect, sent to an endpoint that answers 2xx to a correct request",
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const res = await ctx.send({ ...customerRead(ctx), sign: { privateKey: generateEd25519().seed } });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: keyid ${JSON.stringify(ctx.target.keyId)} with a signature by a freshly generated key`,
    );
    ctx.judged('the answer to the altered request');
  },
});

export const unknownKeyid = defineCheck({
  id: 'signing.reject.unknown-keyid',
  title: 'a request whose keyid names no key is rejected',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-17'],
  explain: {
    sends:
      'A request whose keyid names no key, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const keyId = `${ctx.target.keyId}-unknown-${randomBytes(4).toString('hex')}`;
    // Signed with the client's real key: only a server that honours keyid tells this one apart.
    const res = await ctx.send({ ...customerRead(ctx), sign: { keyId } });
    expectRejection(ctx, res, `${REJECTED}: keyid ${JSON.stringify(keyId)} names no key of the client`);
    ctx.judged('the answer to the altered request');
  },
});

export const expired = defineCheck({
  id: 'signing.reject.expired',
  title: 'a request whose signature expired 10 minutes ago is rejected',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-09'],
  explain: {
    failsInFull: true,
    sends:
      "GET /customers/{customerId}, correct in every way except that its signature, with the run's window, expired 600 s before sending (far beyond any clock skew a server tolerates)",
    passes: 'any 4xx: the server refuses a signature past its expires',
    fails:
      'a 2xx (the server served a request on an expired signature, so a captured request can be replayed forever) or a 5xx (it crashed on it)',
  },
  async run(ctx) {
    // Ten minutes, not seconds: no server's tolerance for clock skew reaches that far. The run's window, so that a
    // server refusing a longer one cannot refuse it for that.
    const now = nowSeconds();
    const created = now - 600 - signingProfile(ctx).windowSeconds;
    const res = await ctx.send({ ...customerRead(ctx), sign: { created, expires: now - 600 } });
    expectRejection(ctx, res, `${REJECTED}: created ${created}, expires ${now - 600} (600 s ago)`);
    ctx.judged('the answer to the altered request');
  },
});

export const futureCreated = defineCheck({
  id: 'signing.reject.future-created',
  title: 'a request whose signature is created 10 minutes in the future is rejected',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-09'],
  explain: {
    sends:
      "A request whose signature is created 10 minutes in the future (with the run's window), correct in every other respect, sent to an endpoint that answers 2xx to a correct request",
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const now = nowSeconds();
    const expires = now + 600 + signingProfile(ctx).windowSeconds;
    const res = await ctx.send({ ...customerRead(ctx), sign: { created: now + 600, expires } });
    expectRejection(ctx, res, `${REJECTED}: created ${now + 600} (600 s ahead), expires ${expires}`);
    ctx.judged('the answer to the altered request');
  },
});

export const malformedSignatureInput = defineCheck({
  id: 'signing.reject.malformed-signature-input',
  title: 'a request whose Signature-Input is not a structured dictionary is rejected, not a crash',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'GET /customers/{customerId} whose Signature-Input lists its components unquoted, which is not a structured dictionary, correct in every other respect',
    passes: "the server rejects it (any 4xx is a rejection): neither the spec's format nor RFC 8941 syntax allows it",
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const now = nowSeconds();
    const { label, windowSeconds } = signingProfile(ctx);
    const covered = await coveredComponents(ctx, customerRead(ctx));
    // Unquoted component names: a client mistake the spec's format ("ordered quoted component names") rules out, and
    // not RFC 8941 syntax ("@method" cannot start a bare item).
    const malformed = `${label}=(${covered.join(' ')});keyid="${ctx.target.keyId}";created=${now};expires=${now + windowSeconds}`;
    const res = await ctx.send({
      ...customerRead(ctx),
      tamper: (req) => setHeader(req.headers, 'Signature-Input', malformed),
    });
    expectRejection(ctx, res, `${REJECTED}, never a 5xx: Signature-Input is ${malformed}`);
    ctx.judged('the answer to the altered request');
  },
});

export const missingKeyid = defineCheck({
  id: 'signing.reject.missing-keyid',
  title: 'a signature whose Signature-Input names no keyid is rejected',
  level: 'SHOULD',
  requirements: ['REQ-AUTH-17'],
  explain: {
    sends:
      "GET /customers/{customerId}, validly signed by the client's key in the run's profile, with created and expires but no keyid in Signature-Input",
    passes:
      'the server rejects it (any 4xx is a rejection): nothing names the key the signature is to be verified with',
    fails:
      'a 2xx (the server verified with a key nothing named) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const now = nowSeconds();
    const params: SignatureParam[] = [
      ['created', now],
      ['expires', now + signingProfile(ctx).windowSeconds],
    ];
    const res = await ctx.send({ ...customerRead(ctx), sign: { params } });
    expectRejection(ctx, res, `${REJECTED}: Signature-Input carries created and expires, and no keyid`);
    ctx.judged('the answer to the altered request');
  },
});

export const labelMismatch = defineCheck({
  id: 'signing.reject.label-mismatch',
  title: 'a request whose Signature and Signature-Input carry different labels is rejected',
  level: 'SHOULD',
  requirements: ['REQ-HDR-06'],
  explain: {
    sends:
      'A request whose Signature and Signature-Input carry different labels, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const { label } = signingProfile(ctx);
    const other = otherLabel(label);
    const res = await ctx.send({
      ...customerRead(ctx),
      tamper: (req) =>
        setHeader(req.headers, 'Signature', relabelSignature(headerValue(req.headers, 'signature')!, other)),
    });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: Signature-Input labels its input ${label}, Signature labels the (valid) signature ${other}`,
    );
    ctx.judged('the answer to the altered request');
  },
});

// ---- what the signature covers -------------------------------------------------------------------------------------
export const replayOtherPath = defineCheck({
  id: 'signing.reject.replay-other-path',
  title: 'a valid signature of one GET replayed on another path is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'A valid signature of one GET replayed on another path, correct in every other respect',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const other = (await ctx.prepare({ method: 'GET', path: otherReadPath(ctx), sign: false })).url;
    const res = await sendWithControl(ctx, customerRead(ctx), (req) => {
      req.url = other;
    });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: the signature of the request just served, sent again for GET ${new URL(other).pathname}`,
    );
    ctx.judged('the answer to the altered request');
  },
});

export const replayOtherMethod = defineCheck({
  id: 'signing.reject.replay-other-method',
  title: 'a valid signature made for another method on the same URL is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A valid signature made for another method on the same URL, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    // Signed as a POST carrying exactly the headers of the GET (no body, no idempotency key), then sent as the GET:
    // the only difference is @method. GET is the one method of this path that answers 2xx to a correct request.
    const res = await ctx.send({
      ...customerRead(ctx),
      method: 'POST',
      idempotencyKey: null,
      tamper: (req) => {
        req.method = 'GET';
      },
    });
    expectRejection(ctx, res, `${REJECTED}: a GET carrying a signature whose @method is POST`);
    ctx.judged('the answer to the altered request');
  },
});

export const replayOtherQuery = defineCheck({
  id: 'signing.reject.replay-other-query',
  title: 'a valid signature of one GET replayed with another query is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'A valid signature of one GET replayed with another query, correct in every other respect',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const other = (
      await ctx.prepare({
        ...INSTRUMENTS,
        query: { investmentType: 'INTERNATIONAL_STOCKS', limit: 2 },
        sign: false,
      })
    ).url;
    const res = await sendWithControl(ctx, INSTRUMENTS, (req) => {
      req.url = other;
    });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: the signature of GET /instruments?…&limit=1, just served, sent again with limit=2`,
    );
    ctx.judged('the answer to the altered request');
  },
});

export const alteredAuthorization = defineCheck({
  id: 'signing.reject.altered-authorization',
  title: 'a request whose Authorization was replaced after signing (by another valid token) is rejected',
  level: 'MUST',
  uses: ['token-revocation'],
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A request whose Authorization was replaced after signing (by another valid token), correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    await withTokens(ctx, async (jar) => {
      // Another valid token of the same client: the header is right in itself, only the signature does not cover it.
      // Issued after the control was served: a server that ends older tokens on a new one (REQ-LIFE-05) keeps this
      // one working, so only the signature can make the server refuse the altered request.
      const res = await sendWithControl(ctx, customerRead(ctx), async (req) => {
        const { token } = await jar.issue();
        setHeader(req.headers, 'Authorization', `Bearer ${token}`);
      });
      expectRejection(
        ctx,
        res,
        `${REJECTED}: the signature covers "authorization" with the run's token; the request carries another valid token`,
      );
      ctx.judged('the answer to the altered request');
    });
  },
});

export const alteredClientId = defineCheck({
  id: 'signing.reject.altered-client-id',
  title: 'a request whose X-Client-Id was changed after signing is rejected',
  level: 'MUST',
  requirements: ['REQ-SVC-09'],
  explain: {
    sends:
      'A request whose X-Client-Id was changed after signing, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const other = `conformance-other-${randomBytes(4).toString('hex')}`;
    const res = await sendWithControl(ctx, customerRead(ctx), (req) => setHeader(req.headers, 'X-Client-Id', other));
    expectRejection(
      ctx,
      res,
      `${REJECTED}: the signature covers "x-client-id" ${JSON.stringify(ctx.target.clientId)}; the request carries ${JSON.stringify(other)}`,
    );
    ctx.judged('the answer to the altered request');
  },
});

export const uncoveredHeader = defineCheck({
  id: 'signing.reject.uncovered-header',
  title: 'a request whose signature leaves out a header it carries (Authorization) is rejected',
  level: 'SHOULD',
  requirements: ['REQ-HDR-18'],
  explain: {
    sends:
      'A request whose signature leaves out a header it carries (Authorization), correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const spec = customerRead(ctx);
    const components = (await coveredComponents(ctx, spec)).filter((c) => c !== 'authorization');
    const res = await ctx.send({ ...spec, sign: { components } });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: the request carries Authorization, the signature covers only (${components.join(' ')})`,
    );
    ctx.judged('the answer to the altered request');
  },
});

export const targetNotCovered = defineCheck({
  id: 'signing.reject.target-not-covered',
  title: 'a request whose signature covers neither @target-uri nor @path is rejected',
  level: 'SHOULD',
  requirements: ['REQ-HDR-18'],
  explain: {
    sends:
      'A request whose signature covers neither @target-uri nor @path, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const spec = customerRead(ctx);
    const components = (await coveredComponents(ctx, spec)).filter(
      (c) => !['@target-uri', '@path', '@query'].includes(c),
    );
    const res = await ctx.send({ ...spec, sign: { components } });
    expectRejection(
      ctx,
      res,
      `${REJECTED}: the signature covers (${components.join(' ')}): it would be valid on any path`,
    );
    ctx.judged('the answer to the altered request');
  },
});

// ---- bodies and digests ------------------------------------------------------------------------------------------
export const bodyTampered = defineCheck({
  id: 'signing.reject.body-tampered',
  title: 'a PUT whose body (and digest) were changed after signing is rejected, and nothing is applied',
  level: 'MUST',
  uses: ['mutable-customer'],
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'A PUT whose body (and digest) were changed after signing, correct in every other respect',
    passes: 'the server rejects it, and nothing is applied (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
    const field =
      ['firstName', 'lastName'].find((f) => typeof before.values[f] === 'string') ??
      ctx.skip(
        `customer ${before.customerId} shows neither firstName nor lastName: no field to change that could be restored`,
      );
    const tampered = customerBody(before, { [field]: JSON.stringify(`${String(before.values[field])}-tampered`) });
    // What an attacker on the path does: swap the body and fix Content-Digest and Content-Length to match. The
    // signature, which covers content-digest, no longer verifies.
    await expectPutRejectedAndHarmless(
      ctx,
      before,
      () => ctx.send(putCurrent(before, { tamper: (req) => replaceBody(req, tampered, { digest: true }) })),
      `${REJECTED}: the body says ${field} ${JSON.stringify(`${String(before.values[field])}-tampered`)}, the signed digest was of the current values`,
    );
  },
});

export const digestMismatch = defineCheck({
  id: 'signing.reject.digest-mismatch',
  title: 'a PUT whose Content-Digest does not match its body is rejected',
  level: 'MUST',
  uses: ['mutable-customer'],
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'A PUT whose Content-Digest does not match its body, correct in every other respect',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
    const body = customerBody(before);
    // The same JSON with its padding moved: same length, same meaning, other bytes. The signature (over the headers)
    // stays valid; only a server that checks the digest against the body notices.
    await expectPutRejectedAndHarmless(
      ctx,
      before,
      () =>
        ctx.send(
          putCurrent(before, {
            body: `${body} `,
            tamper: (req) => replaceBody(req, ` ${body}`, { digest: false }),
          }),
        ),
      `${REJECTED}: Content-Digest is the digest of other bytes than the body`,
    );
  },
});

export const missingDigest = defineCheck({
  id: 'signing.reject.missing-digest',
  title: 'a PUT with a body and no Content-Digest is rejected',
  level: 'SHOULD',
  uses: ['mutable-customer'],
  requirements: ['REQ-HDR-23'],
  explain: {
    sends: 'A PUT with a body and no Content-Digest, correct in every other respect',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
    const spec = putCurrent(before);
    // Signed without content-digest, then the header dropped: the signature is valid for the request as sent.
    const components = (await coveredComponents(ctx, spec)).filter((c) => c !== 'content-digest');
    await expectPutRejectedAndHarmless(
      ctx,
      before,
      () => ctx.send({ ...spec, sign: { components }, tamper: (req) => dropHeader(req, 'Content-Digest') }),
      `${REJECTED}: a JSON body without Content-Digest`,
    );
  },
});

export const digestNotCovered = defineCheck({
  id: 'signing.reject.digest-not-covered',
  title: 'a PUT whose signature leaves out the Content-Digest it carries is rejected',
  level: 'SHOULD',
  uses: ['mutable-customer'],
  requirements: ['REQ-HDR-18'],
  explain: {
    sends: 'A PUT whose signature leaves out the Content-Digest it carries, correct in every other respect',
    passes: 'the server rejects it (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns',
  },
  async run(ctx) {
    const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
    const spec = putCurrent(before);
    // The digest is right for the body, but unsigned: anyone on the path could change body and digest together.
    const components = (await coveredComponents(ctx, spec)).filter((c) => c !== 'content-digest');
    await expectPutRejectedAndHarmless(
      ctx,
      before,
      () => ctx.send({ ...spec, sign: { components } }),
      `${REJECTED}: the request carries Content-Digest, the signature covers only (${components.join(' ')})`,
    );
  },
});

export const postBodyTampered = defineCheck({
  id: 'signing.reject.post-body-tampered',
  title: 'a POST /webhooks whose body (and digest) were changed after signing is rejected, and nothing is applied',
  level: 'MUST',
  uses: ['webhook-config'],
  requirements: ['REQ-SVC-09'],
  explain: {
    sends: 'A POST /webhooks whose body (and digest) were changed after signing, correct in every other respect',
    passes: 'the server rejects it, and nothing is applied (any 4xx is a rejection)',
    fails:
      'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails',
  },
  async run(ctx) {
    // Saved first, and put back whatever happens; a configuration that cannot be read skips the check unsent.
    await withRestoredWebhook(
      ctx,
      async (before) => {
        if (before.kind === 'webhook')
          ctx.observe(
            'a webhook was configured before: a 4xx may also be the refusal of a second creation, so this check proves less here than on a client without one',
          );
        const nonce = randomUUID().slice(0, 8);
        // .invalid never resolves (RFC 6761): should the server accept, it can deliver nothing anywhere. Subscribed to
        // its own creation only, which cannot recur while it exists: the server then queues nothing more for it, where
        // every event of the run would otherwise wait in line, delivery after failing delivery, before the receiver's.
        const signed = { url: `https://conformance.invalid/signed-${nonce}`, subscriptions: QUIET };
        const tampered = { url: `https://conformance.invalid/tampered-${nonce}`, subscriptions: QUIET };
        const res = await ctx.send({
          method: 'POST',
          path: '/webhooks',
          json: signed,
          tamper: (req) => replaceBody(req, JSON.stringify(tampered), { digest: true }),
        });
        const after = await saveWebhook(ctx);
        const url = after.kind === 'webhook' ? after.config.url : undefined;
        const changed = after.kind === 'webhook' && (before.kind !== 'webhook' || url !== before.config.url);
        if (changed || isSuccess(res)) {
          ctx.fail(
            changed
              ? `${res.status}, and the tampered body was applied: the webhook url is now ${String(url)}`
              : `${res.status}: the server accepted the request`,
            {
              expected: `${REJECTED}: the body says url ${tampered.url}, the signed digest was of url ${signed.url}; and no webhook change`,
              observed: describeResponse(res),
              exchange: res.exchange,
            },
          );
        }
        expectRejection(ctx, res, `${REJECTED}, never a 5xx: the body was changed after signing`);
        ctx.judged('the answer to the altered request');
      },
      { onlyAfterFailure: true },
    );
  },
});
