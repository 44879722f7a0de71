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
import { defineSuite } from '../../src/engine/index.js';
import * as accept from './accept.js';
import * as info from './info.js';
import * as reject from './reject.js';

export default defineSuite({
  name: 'signing',
  title: 'Request signatures and content digests',
  checks: [
    accept.get,
    accept.put,
    accept.post,
    info.profile,
    reject.missingSignature,
    reject.missingSignatureInput,
    reject.alteredSignature,
    reject.wrongKey,
    reject.unknownKeyid,
    reject.expired,
    reject.futureCreated,
    reject.malformedSignatureInput,
    reject.missingKeyid,
    info.signatureParameters,
    reject.labelMismatch,
    reject.replayOtherPath,
    reject.replayOtherMethod,
    reject.replayOtherQuery,
    reject.alteredAuthorization,
    reject.alteredClientId,
    reject.uncoveredHeader,
    reject.targetNotCovered,
    info.queryCoverage,
    reject.bodyTampered,
    reject.digestMismatch,
    reject.missingDigest,
    info.digestAlgorithm,
    reject.digestNotCovered,
    reject.postBodyTampered,
  ],
});
