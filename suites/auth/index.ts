// Suite `auth`: tokens (spec "Auth token record", "Token lifecycle", "Authentication endpoints", "Authentication").
//
// Levels: MUST where the spec states what the server does or gives (a token for valid credentials and none for wrong
// ones, the shape a row of the token record states where the field is present (tokenType Bearer, both scopes, trustedIps
// a list, organization an object with id, name and clientId), the 60-minute TTL, 401 for a missing or unknown token and
// a refusal for a malformed one, a revoked token refused, every request protected by a token and a signature); SHOULD
// where the rule is the only reasonable reading (every field of the record present, as the table has no Required
// column; expiresIn in seconds, as OAuth 2.0's expires_in; organization.clientId is the caller's id) or what a client is
// told to send (X-Client-Id, Content-Digest and the idempotency header required); INFO where the spec says "not shown"
// or "unresolved", or leaves a move of the token lifecycle open (how far a revocation reaches, whether a new token ends
// the older ones, the shape of the token answer and of the revoke request, whether a JSON token body is taken).
//
// Every token a check obtains is revoked before the check ends (TokenJar), also when the check fails, in the run's
// revoke shape: learnt at the run's first revocation (no body, a form body token=, a JSON body), or set by the config.
import { defineSuite } from '../../src/engine/index.js';
import {
  tokenIssued,
  tokenFields,
  tokenUnique,
  tokenTypeBearer,
  tokenScope,
  tokenOrganization,
  tokenTrustedIps,
  tokenTimestamps,
  tokenMissingDigest,
  tokenResponseShape,
  tokenWrongSecret,
  tokenUnknownClient,
  tokenMissingSecret,
  tokenUnsigned,
  tokenWrongDigest,
  tokenOlderTokens,
  tokenMaxTtl,
} from './token.js';
import { useChecks } from './use.js';
import { revokeChecks } from './revoke.js';
import { expiryChecks } from './expiry.js';
import { idempotencyRequired, idempotencyIdSpelling, idempotencyTokenRepeat } from './idempotency.js';
import { infoChecks } from './info.js';
import { scopeChecks } from './scope.js';

// Nearly every check obtains tokens of its own and revokes them (TokenJar): they take turns with other revokers.
export default defineSuite({
  name: 'auth',
  title: 'Tokens: issuing, using, revoking',
  uses: ['token-revocation'],
  checks: [
    // ---- issuing ------------------------------------------------------------------------------------------------
    tokenIssued,
    tokenFields,
    tokenUnique,
    tokenTypeBearer,
    tokenScope,
    tokenOrganization,
    tokenTrustedIps,
    tokenTimestamps,
    tokenMissingDigest,
    tokenResponseShape,
    // ---- token requests that must not give a token --------------------------------------------------------------
    tokenWrongSecret,
    tokenUnknownClient,
    tokenMissingSecret,
    tokenUnsigned,
    tokenWrongDigest,
    // ---- using a token ------------------------------------------------------------------------------------------
    ...useChecks,
    // ---- revoking -----------------------------------------------------------------------------------------------
    ...revokeChecks,
    // ---- expiry -------------------------------------------------------------------------------------------------
    ...expiryChecks,
    // ---- idempotency --------------------------------------------------------------------------------------------
    idempotencyRequired,
    // ---- open points (INFO) -------------------------------------------------------------------------------------
    ...infoChecks,
    tokenOlderTokens,
    tokenMaxTtl,
    ...scopeChecks,
    idempotencyIdSpelling,
    idempotencyTokenRepeat,
  ],
});
