// Suite `signing`: HTTP message signatures and content digests on requests (spec "Common request rules",
// "Authentication" 4–5; RFC 9421, RFC 9530).
//
// Each negative check sends a request that is right in every way but one, to an endpoint that would otherwise answer
// 2xx, and expects a rejection: any 4xx; a 2xx served what it should not; a 5xx crashed on it. Reads go to
// GET /customers/{customerId} (GET /instruments where a query is needed); bodies go to PUT /customers on the mutable
// customer with the customer's current values (accepted or not, nothing changes), or to POST /webhooks with the
// configuration saved first.
//
// Every request is signed in the run's signing profile (the window, the components covering the target and the label
// the server took when the run opened, suites/kit/signing-profile.ts), and every probe departs from it in one way only.
//
// Levels: MUST where a server that accepts the request does not verify signatures at all (Authentication 5: "The
// signature covers the ordered components listed in Signature-Input"): a missing or altered signature, one by another
// key, one replayed on another method, path or query, a body or digest changed after signing, a Signature-Input that
// is no structured dictionary. SHOULD where the refusal rests on verifier policy the spec points to (RFC 9421/9530
// practice): an expired signature or a future `created`, a keyid naming no key or none, coverage of every carried
// header and of the target, label pairing, a body without Content-Digest, @path + @query for the target. INFO where
// the spec leaves the reading open (REQ-AUTH-13 "not shown", REQ-HDR-09): the profile the server takes, whether
// created and expires may be left out, whether @query must be covered, which digest algorithms are taken.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { defineCheck, defineSuite, type CheckContext } from '../../src/engine/index.js';
import {
  alterSignature,
  componentsWith,
  coveredComponents,
  customerBody,
  describeProfile,
  describeResponse,
  dropHeader,
  expectRejection,
  expectSuccess,
  generateEd25519,
  headerValue,
  inSpecOrder,
  isRejection,
  isSuccess,
  nowSeconds,
  readCustomerOrSkip,
  relabelSignature,
  replaceBody,
  saveWebhook,
  sendWithControl,
  setHeader,
  signedBody,
  signingNote,
  signingProfile,
  signingRecord,
  tokenIn,
  tokenRequest,
  withRestoredCustomer,
  withRestoredWebhook,
  withTokens,
  type HttpResponse,
  type SignatureParam,
} from '../kit/index.js';
import { expectPutRejectedAndHarmless } from './helpers/harmless-put.js';
import { customerRead, INSTRUMENTS, putCurrent } from './helpers/requests.js';

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

/** What an INFO probe met, in the words its `recorded` patterns read: taken (2xx), refused (4xx), or neither. */
function outcome(res: HttpResponse): string {
  if (isSuccess(res)) return `taken (${res.status})`;
  if (isRejection(res)) return `refused (${res.status})`;
  return `neither taken nor refused: ${describeResponse(res)}`;
}

/** Another label than the run's: the label-mismatch probe pairs a signature with an input of another name. */
function otherLabel(label: string): string {
  return label === 'sig2' ? 'sig3' : 'sig2';
}

export default defineSuite({
  name: 'signing',
  title: 'Request signatures and content digests',
  checks: [
    // ---- positive: the baseline every negative check departs from ------------------------------------------------
    defineCheck({
      id: 'signing.accept.get',
      title: "a GET signed over the spec's components, in the spec's order, is accepted",
      level: 'MUST',
      requirements: ['REQ-SVC-09', 'REQ-CUSTEP-02'],
      explain: {
        sends:
          "GET /customers/{customerId}, signed over the spec's components in the spec's order (the headers, then the derived components)",
        passes: 'a 2xx answer: the signature, made as the spec prescribes, is verified and the read served',
        fails:
          'any other status: the server does not take a signature made as the spec prescribes (the check fails); no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const spec = customerRead(ctx);
        // The spec's order (headers, then derived components) differs from our default: the server must follow the
        // order Signature-Input lists, not one of its own.
        const components = inSpecOrder(await coveredComponents(ctx, spec));
        const res = await ctx.send({ ...spec, sign: { components } });
        expectSuccess(ctx, res, `a 2xx answer to a GET signed over (${components.join(' ')})`);
        ctx.judged('the answer to the signed GET');
      },
    }),
    defineCheck({
      id: 'signing.accept.put',
      title: "a PUT with a body, signed over the spec's components in the spec's order, is accepted",
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: ['REQ-SVC-09', 'REQ-HDR-13', 'REQ-CUSTEP-07'],
      explain: {
        sends:
          "PUT /customers on the mutable customer with its current values (nothing changes), with Content-Digest, signed over the spec's components in the spec's order",
        passes:
          'a 2xx answer: the signature and the digest, made as the spec prescribes, are verified and the update taken',
        fails:
          'any other status: the server does not take a signed body made as the spec prescribes (the check fails); no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
        const spec = putCurrent(before);
        const components = inSpecOrder(await coveredComponents(ctx, spec));
        const res = await ctx.send({ ...spec, sign: { components } });
        expectSuccess(
          ctx,
          res,
          `a 2xx answer to PUT /customers (the customer's own values) signed over (${components.join(' ')})`,
        );
        ctx.judged('the answer to the signed PUT');
      },
    }),
    defineCheck({
      id: 'signing.accept.post',
      title:
        "the token request (a POST with a form body), signed over the spec's components in the spec's order, is accepted",
      level: 'MUST',
      uses: ['token-revocation'],
      requirements: ['REQ-SVC-09', 'REQ-TOKEP-01'],
      explain: {
        sends:
          "the token request (POST /oauth/token, a form body with Content-Digest), signed over the spec's components in the spec's order; the token is revoked afterwards",
        passes: 'a 2xx answer carrying a token',
        fails:
          'any other status, or no token in the answer: the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        await withTokens(ctx, async (jar) => {
          const spec = tokenRequest(ctx.credentials);
          const components = inSpecOrder(await coveredComponents(ctx, spec));
          const res = await ctx.send({ ...spec, sign: { components } });
          const found = tokenIn(res);
          if (found) await jar.keep(found.token);
          expectSuccess(
            ctx,
            res,
            `a 2xx answer with a token to POST /oauth/token signed over (${components.join(' ')})`,
          );
          if (!found)
            ctx.fail('no token in the answer', {
              expected: 'a token record',
              observed: describeResponse(res),
              exchange: res.exchange,
            });
          ctx.judged('the answer to the signed token request');
        });
      },
    }),
    defineCheck({
      id: 'signing.info.profile',
      title:
        'the signing profile the server takes: the window, the components covering the target, the label, and what it refused',
      level: 'INFO',
      requirements: ['REQ-AUTH-13', 'REQ-HDR-16'],
      explain: {
        sends:
          "nothing for the profile itself: the run learnt it at its first token request (one refused in the default shape, a 60 s window over @method @target-uri @path @query, is tried again with 30 s and 10 s windows, over @path and @query alone, over @target-uri alone, at most 8 token requests); then GET /instruments four times, each in the run's profile but for one thing: a 300 s window, created 20 s ahead of this machine's clock, the target covered by @target-uri alone, by @path and @query alone",
        passes:
          'always, once the answers could be read: the check records the profile every request of the run was signed with, the shapes the server refused before it, and which of the four variations the server takes',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const profile = signingProfile(ctx);
        const record = signingRecord(ctx);
        ctx.observe(record ? signingNote(record) : `signing: ${describeProfile(profile)}`);
        const now = nowSeconds();
        const long = await ctx.send({ ...INSTRUMENTS, sign: { created: now, expires: now + 300 } });
        const ahead = await ctx.send({
          ...INSTRUMENTS,
          sign: { created: now + 20, expires: now + 20 + profile.windowSeconds },
        });
        ctx.observe(
          `window: a 300 s window (expires 300 s after created): ${outcome(long)}; created 20 s ahead of this machine's clock (with a ${profile.windowSeconds} s window): ${outcome(ahead)}`,
        );
        ctx.judged('the answers to the window probes', 2);
        const uri = await componentsWith(ctx, INSTRUMENTS, ['@method', '@target-uri']);
        const byUri = await ctx.send({ ...INSTRUMENTS, sign: { components: uri } });
        const pathQuery = await componentsWith(ctx, INSTRUMENTS, ['@method', '@path', '@query']);
        const byPath = await ctx.send({ ...INSTRUMENTS, sign: { components: pathQuery } });
        ctx.observe(
          `target: over @target-uri without @path/@query: ${outcome(byUri)}; over @path and @query without @target-uri: ${outcome(byPath)}`,
        );
        ctx.judged('the answers to the target probes', 2);
      },
    }),

    // ---- the signature itself ------------------------------------------------------------------------------------
    defineCheck({
      id: 'signing.reject.missing-signature',
      title: 'a request without Signature is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'A request without Signature, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const res = await ctx.send({ ...customerRead(ctx), tamper: (req) => dropHeader(req, 'Signature') });
        expectRejection(ctx, res, `${REJECTED}: Signature-Input is there, Signature is not`);
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.missing-signature-input',
      title: 'a request without Signature-Input is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'A request without Signature-Input, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const res = await ctx.send({ ...customerRead(ctx), tamper: (req) => dropHeader(req, 'Signature-Input') });
        expectRejection(ctx, res, `${REJECTED}: Signature is there, Signature-Input is not`);
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.altered-signature',
      title: 'a request whose signature bytes were altered is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'A request whose signature bytes were altered, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const res = await ctx.send({
          ...customerRead(ctx),
          tamper: (req) => setHeader(req.headers, 'Signature', alterSignature(headerValue(req.headers, 'signature')!)),
        });
        expectRejection(ctx, res, `${REJECTED}: one bit of the signature was flipped`);
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.wrong-key',
      title: "a request signed with another Ed25519 key under the client's keyid is rejected",
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          "A request signed with another Ed25519 key under the client's keyid, correct in every other respect, sent to an endpoint that answers 2xx to a correct request",
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.unknown-keyid',
      title: 'a request whose keyid names no key is rejected',
      level: 'SHOULD',
      requirements: ['REQ-AUTH-17'],
      explain: {
        sends:
          'A request whose keyid names no key, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const keyId = `${ctx.target.keyId}-unknown-${randomBytes(4).toString('hex')}`;
        // Signed with the client's real key: only a server that honours keyid tells this one apart.
        const res = await ctx.send({ ...customerRead(ctx), sign: { keyId } });
        expectRejection(ctx, res, `${REJECTED}: keyid ${JSON.stringify(keyId)} names no key of the client`);
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.expired',
      title: 'a request whose signature expired 10 minutes ago is rejected',
      level: 'SHOULD',
      requirements: ['REQ-AUTH-09'],
      explain: {
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
    }),
    defineCheck({
      id: 'signing.reject.future-created',
      title: 'a request whose signature is created 10 minutes in the future is rejected',
      level: 'SHOULD',
      requirements: ['REQ-AUTH-09'],
      explain: {
        sends:
          "A request whose signature is created 10 minutes in the future (with the run's window), correct in every other respect, sent to an endpoint that answers 2xx to a correct request",
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const now = nowSeconds();
        const expires = now + 600 + signingProfile(ctx).windowSeconds;
        const res = await ctx.send({ ...customerRead(ctx), sign: { created: now + 600, expires } });
        expectRejection(ctx, res, `${REJECTED}: created ${now + 600} (600 s ahead), expires ${expires}`);
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.malformed-signature-input',
      title: 'a request whose Signature-Input is not a structured dictionary is rejected, not a crash',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'GET /customers/{customerId} whose Signature-Input lists its components unquoted, which is not a structured dictionary, correct in every other respect',
        passes:
          "the server rejects it (any 4xx is a rejection): neither the spec's format nor RFC 8941 syntax allows it",
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
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
          'a 2xx (the server verified with a key nothing named) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.info.signature-parameters',
      title: 'whether a signature may leave out created, or expires',
      level: 'INFO',
      requirements: ['REQ-AUTH-13'],
      explain: {
        sends:
          "GET /customers/{customerId} twice, validly signed in the run's profile: once with keyid and expires but no created, once with keyid and created but no expires",
        passes:
          "always, once the answers could be read: the check records whether the server takes a signature without created, and one without expires (the spec's Signature-Input format names both; which parameters a verifier requires is not shown)",
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const now = nowSeconds();
        const keyId: SignatureParam = ['keyid', ctx.target.keyId];
        const expires = now + signingProfile(ctx).windowSeconds;
        const noCreated = await ctx.send({ ...customerRead(ctx), sign: { params: [keyId, ['expires', expires]] } });
        const noExpires = await ctx.send({ ...customerRead(ctx), sign: { params: [keyId, ['created', now]] } });
        ctx.observe(
          `without created (keyid and expires only): ${outcome(noCreated)}; without expires (keyid and created only): ${outcome(noExpires)}`,
        );
        ctx.judged('the answers to a signature without created and one without expires', 2);
      },
    }),
    defineCheck({
      id: 'signing.reject.label-mismatch',
      title: 'a request whose Signature and Signature-Input carry different labels is rejected',
      level: 'SHOULD',
      requirements: ['REQ-HDR-06'],
      explain: {
        sends:
          'A request whose Signature and Signature-Input carry different labels, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),

    // ---- what the signature covers ---------------------------------------------------------------------------------
    defineCheck({
      id: 'signing.reject.replay-other-path',
      title: 'a valid signature of one GET replayed on another path is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends: 'A valid signature of one GET replayed on another path, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.replay-other-method',
      title: 'a valid signature made for another method on the same URL is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'A valid signature made for another method on the same URL, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.replay-other-query',
      title: 'a valid signature of one GET replayed with another query is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends: 'A valid signature of one GET replayed with another query, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
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
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.altered-client-id',
      title: 'a request whose X-Client-Id was changed after signing is rejected',
      level: 'MUST',
      requirements: ['REQ-SVC-09'],
      explain: {
        sends:
          'A request whose X-Client-Id was changed after signing, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
      },
      async run(ctx) {
        const other = `conformance-other-${randomBytes(4).toString('hex')}`;
        const res = await sendWithControl(ctx, customerRead(ctx), (req) =>
          setHeader(req.headers, 'X-Client-Id', other),
        );
        expectRejection(
          ctx,
          res,
          `${REJECTED}: the signature covers "x-client-id" ${JSON.stringify(ctx.target.clientId)}; the request carries ${JSON.stringify(other)}`,
        );
        ctx.judged('the answer to the altered request');
      },
    }),
    defineCheck({
      id: 'signing.reject.uncovered-header',
      title: 'a request whose signature leaves out a header it carries (Authorization) is rejected',
      level: 'SHOULD',
      requirements: ['REQ-HDR-18'],
      explain: {
        sends:
          'A request whose signature leaves out a header it carries (Authorization), correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.target-not-covered',
      title: 'a request whose signature covers neither @target-uri nor @path is rejected',
      level: 'SHOULD',
      requirements: ['REQ-HDR-18'],
      explain: {
        sends:
          'A request whose signature covers neither @target-uri nor @path, correct in every other respect, sent to an endpoint that answers 2xx to a correct request',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),

    defineCheck({
      id: 'signing.info.query-coverage',
      title: 'whether a GET with a query signed over @path, without @query, is taken',
      level: 'INFO',
      requirements: ['REQ-AUTH-13'],
      explain: {
        sends:
          "GET /instruments?investmentType=INTERNATIONAL_STOCKS&limit=1, signed in the run's profile but over @path without @query (nor @target-uri)",
        passes:
          'always, once the answer could be read: the check records whether the server takes it. @query is no header, and the spec\'s rule covers "the headers that the request carries": whether the query must be signed is the server\'s reading (a request signed so could be replayed with another query)',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const components = await componentsWith(ctx, INSTRUMENTS, ['@method', '@path']);
        const res = await ctx.send({ ...INSTRUMENTS, sign: { components } });
        ctx.observe(
          `a GET with a query signed over @path without @query (nor @target-uri), (${components.join(' ')}): ${outcome(res)}`,
        );
        ctx.judged('the answer to a GET signed without @query');
      },
    }),

    // ---- bodies and digests --------------------------------------------------------------------------------------
    defineCheck({
      id: 'signing.reject.body-tampered',
      title: 'a PUT whose body (and digest) were changed after signing is rejected, and nothing is applied',
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: ['REQ-SVC-09'],
      explain: {
        sends: 'A PUT whose body (and digest) were changed after signing, correct in every other respect',
        passes: 'the server rejects it, and nothing is applied (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.digest-mismatch',
      title: 'a PUT whose Content-Digest does not match its body is rejected',
      level: 'MUST',
      uses: ['mutable-customer'],
      requirements: ['REQ-SVC-09'],
      explain: {
        sends: 'A PUT whose Content-Digest does not match its body, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.missing-digest',
      title: 'a PUT with a body and no Content-Digest is rejected',
      level: 'SHOULD',
      uses: ['mutable-customer'],
      requirements: ['REQ-HDR-23'],
      explain: {
        sends: 'A PUT with a body and no Content-Digest, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.info.digest-algorithm',
      title: 'whether a PUT whose Content-Digest is sha-256 alone (right for the body, signed) is taken',
      level: 'INFO',
      uses: ['mutable-customer'],
      requirements: ['REQ-HDR-09'],
      explain: {
        sends:
          "PUT /customers on the mutable customer with its current values (nothing changes), signed in the run's profile, whose Content-Digest is sha-256 alone: right for the body, but not the sha-512 the spec's format names",
        passes:
          'always, once the answer could be read: the check records whether the server takes only sha-512, or other RFC 9530 algorithms (sha-256) too',
        fails:
          'never: an INFO check does not fail the run (a server that gives no usable answer is noted as a warning)',
      },
      async run(ctx) {
        const before = await readCustomerOrSkip(ctx, ctx.fixture('mutableCustomerId'));
        const body = customerBody(before);
        const digest = `sha-256=:${createHash('sha256').update(body, 'utf8').digest('base64')}:`;
        // The customer's own values: taken or not, nothing changes; put back all the same should the check be cut short.
        await withRestoredCustomer(
          ctx,
          before,
          async () => {
            const res = await ctx.send({
              method: 'PUT',
              path: '/customers',
              ...signedBody(body, 'application/json', digest),
            });
            ctx.observe(`a PUT whose Content-Digest is sha-256 alone (right for the body, signed): ${outcome(res)}`);
            ctx.judged('the answer to a PUT with a sha-256 digest');
          },
          { onlyAfterFailure: true },
        );
      },
    }),
    defineCheck({
      id: 'signing.reject.digest-not-covered',
      title: 'a PUT whose signature leaves out the Content-Digest it carries is rejected',
      level: 'SHOULD',
      uses: ['mutable-customer'],
      requirements: ['REQ-HDR-18'],
      explain: {
        sends: 'A PUT whose signature leaves out the Content-Digest it carries, correct in every other respect',
        passes: 'the server rejects it (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check warns; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
    defineCheck({
      id: 'signing.reject.post-body-tampered',
      title: 'a POST /webhooks whose body (and digest) were changed after signing is rejected, and nothing is applied',
      level: 'MUST',
      uses: ['webhook-config'],
      requirements: ['REQ-SVC-09'],
      explain: {
        sends: 'A POST /webhooks whose body (and digest) were changed after signing, correct in every other respect',
        passes: 'the server rejects it, and nothing is applied (any 4xx is a rejection)',
        fails:
          'a 2xx (the server accepted what it must refuse) or a 5xx (it crashed instead of rejecting): the check fails; no usable answer (refused, reset, timed out, a body over the cap) fails it too',
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
    }),
  ],
});
