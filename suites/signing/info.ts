// signing.info.*: what the server takes where the spec leaves the reading open (REQ-AUTH-13 "not shown", REQ-HDR-09):
// the signing profile, whether created and expires may be left out, whether @query must be covered, which digest
// algorithms are taken. Recorded, never failed.
import { createHash } from 'node:crypto';
import { defineCheck } from '../../src/engine/index.js';
import {
  componentsWith,
  customerBody,
  describeProfile,
  describeResponse,
  isRejection,
  isSuccess,
  nowSeconds,
  readCustomerOrSkip,
  signedBody,
  signingNote,
  signingProfile,
  signingRecord,
  withRestoredCustomer,
  type HttpResponse,
  type SignatureParam,
} from '../kit/index.js';
import { customerRead, INSTRUMENTS } from './helpers/requests.js';

/** What an INFO probe met, in the words its `recorded` patterns read: taken (2xx), refused (4xx), or neither. */
function outcome(res: HttpResponse): string {
  if (isSuccess(res)) return `taken (${res.status})`;
  if (isRejection(res)) return `refused (${res.status})`;
  return `neither taken nor refused: ${describeResponse(res)}`;
}

export const profile = defineCheck({
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
});

export const signatureParameters = defineCheck({
  id: 'signing.info.signature-parameters',
  title: 'whether a signature may leave out created, or expires',
  level: 'INFO',
  requirements: ['REQ-AUTH-13'],
  explain: {
    sends:
      "GET /customers/{customerId} twice, validly signed in the run's profile: once with keyid and expires but no created, once with keyid and created but no expires",
    passes:
      "always, once the answers could be read: the check records whether the server takes a signature without created, and one without expires (the spec's Signature-Input format names both; which parameters a verifier requires is not shown)",
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
});

export const queryCoverage = defineCheck({
  id: 'signing.info.query-coverage',
  title: 'whether a GET with a query signed over @path, without @query, is taken',
  level: 'INFO',
  requirements: ['REQ-AUTH-13'],
  explain: {
    sends:
      "GET /instruments?investmentType=INTERNATIONAL_STOCKS&limit=1, signed in the run's profile but over @path without @query (nor @target-uri)",
    passes:
      'always, once the answer could be read: the check records whether the server takes it. @query is no header, and the spec\'s rule covers "the headers that the request carries": whether the query must be signed is the server\'s reading (a request signed so could be replayed with another query)',
  },
  async run(ctx) {
    const components = await componentsWith(ctx, INSTRUMENTS, ['@method', '@path']);
    const res = await ctx.send({ ...INSTRUMENTS, sign: { components } });
    ctx.observe(
      `a GET with a query signed over @path without @query (nor @target-uri), (${components.join(' ')}): ${outcome(res)}`,
    );
    ctx.judged('the answer to a GET signed without @query');
  },
});

export const digestAlgorithm = defineCheck({
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
});
