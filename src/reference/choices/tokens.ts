// The open points of tokens: how far a revocation reaches, whether a new token ends the older ones, whether a token
// may end before its 60 minutes (a restart), what revoke takes and answers, what maxTTL counts, which status a
// malformed Authorization gets, whether scopes are enforced, and whether the token request is also taken as JSON.
import type { ChoiceDef } from './types.js';

/** The requests after which a server with `tokenRestart=after-150` forgets every token it issued (a restart). */
export const RESTART_AFTER_REQUESTS = [150, 600] as const;

export const TOKENS_CHOICES = {
  revoke: {
    requirements: ['REQ-LIFE-03'],
    values: [
      {
        value: 'this-token',
        says: 'POST /oauth/revoke deletes the token presented, and only it',
        realizes: ['only the token presented is deleted'],
        recorded: 'only the token presented is deleted',
      },
      {
        value: 'all-tokens',
        says: 'POST /oauth/revoke deletes every token of the client (one AUTH.DELETED each)',
        realizes: ['every token of the client is deleted'],
        recorded: 'every token of the client is deleted',
      },
    ],
    hiddenBy: [{ choice: 'newToken', value: 'ends-older', recorded: 'how far a revocation reaches cannot be seen' }],
  },
  newToken: {
    requirements: ['REQ-LIFE-05'],
    values: [
      {
        value: 'keeps-older',
        says: "a new token leaves the client's older tokens working",
        realizes: ['older tokens keep working'],
        recorded: 'older tokens keep working',
      },
      {
        value: 'ends-older',
        says: 'a new token ends every older token of the client (one live token per client)',
        realizes: ['a new token ends the older ones'],
        recorded: 'a new token ends the older ones',
      },
    ],
  },
  tokenRestart: {
    requirements: ['REQ-LIFE-06'],
    values: [
      {
        value: 'never',
        says: 'a token ends only at 60 minutes or on revocation',
        realizes: ['only at 60 minutes (or revocation)'],
        recorded: "never ended the run's token early",
      },
      {
        value: 'after-150',
        says: `the server forgets every token it issued after its ${RESTART_AFTER_REQUESTS.join('th and ')}th requests, as a restart would`,
        realizes: ['earlier, e.g. when the server restarts'],
        recorded: "ended the run's token before its 60 minutes",
      },
    ],
  },
  revokeReply: {
    requirements: ['REQ-TOKEP-09'],
    values: [
      {
        value: 'named',
        says: 'revoke answers 200 with {data: {tokenId, revoked: true}, code, message}',
        realizes: ['a body naming the token'],
        recorded: 'a body naming the token',
      },
      {
        value: 'no-content',
        says: 'revoke answers 204 with no body',
        realizes: ['no body, 200 or 204'],
        recorded: '204 with no body',
      },
      {
        value: 'empty',
        says: 'revoke answers 200 with no body',
        realizes: ['no body, 200 or 204'],
        recorded: '200 with no body',
      },
    ],
  },
  revokeBody: {
    requirements: ['REQ-TOKEP-09'],
    values: [
      {
        value: 'none',
        says: 'revoke takes the token from Authorization alone; a body is ignored',
        realizes: ['a request without a body (the token in Authorization alone)'],
        recorded: '^revoke request: a request without a body \\(the token in Authorization alone\\)',
      },
      {
        value: 'form',
        says: 'revoke also needs the token named in a form body, token=<the token> (RFC 7009), a token of the calling client (400 without); that token is revoked',
        realizes: ['the token in a form body (token=, RFC 7009)'],
        recorded: '^revoke request: the token in a form body \\(token=, RFC 7009\\)',
      },
      {
        value: 'json',
        says: 'revoke also needs the token named in a JSON body {"token": …}, a token of the calling client (400 without); that token is revoked',
        realizes: ['the token in a JSON body ({"token": …})'],
        recorded: '^revoke request: the token in a JSON body \\(\\{"token": …\\}\\)',
      },
      {
        value: 'optional-token',
        says: 'revoke takes no body (the token presented is revoked) or a body naming a token of the calling client, a form token= (RFC 7009) or JSON {"token": …}; the token named is the one revoked (400 for a body naming none)',
        realizes: [
          'a request without a body, or with a body naming a token of the client (form token= or JSON), which is the one revoked',
        ],
        recorded: 'a form body naming another token of the client \\(token=, RFC 7009\\) is read',
      },
    ],
    // Two live tokens of the client at once are what shows whether a body is read: not there under these readings.
    hiddenBy: [
      {
        choice: 'newToken',
        value: 'ends-older',
        recorded: 'whether a body naming another token is read cannot be seen',
      },
      { choice: 'revoke', value: 'all-tokens', recorded: 'whether a body naming another token is read cannot be seen' },
      {
        choice: 'tokenRestart',
        value: 'after-150',
        recorded: 'whether a body naming another token is read cannot be seen',
      },
    ],
  },
  tokenBody: {
    requirements: ['REQ-HDR-10'],
    values: [
      {
        value: 'form',
        says: 'the token request is taken as application/x-www-form-urlencoded only (415 for another type)',
        realizes: ['a JSON token body refused'],
        recorded: '^a JSON token body refused',
      },
      {
        value: 'form-or-json',
        says: 'the token request is taken as a form or as an application/json body {clientId, clientSecret}',
        realizes: ['a JSON token body accepted too'],
        recorded: '^a JSON token body accepted too',
      },
    ],
  },
  maxTtl: {
    requirements: ['REQ-LIM-06'],
    values: [
      {
        value: 'seconds',
        says: 'maxTTL is 3600 (the TTL in seconds)',
        realizes: ['3600 (the TTL in seconds)'],
        recorded: 'maxTTL 3600\\b',
      },
      {
        value: 'minutes',
        says: 'maxTTL is 60 (the TTL in minutes)',
        realizes: ['another unit or meaning'],
        recorded: 'maxTTL 60\\b',
      },
    ],
  },
  malformedBearer: {
    requirements: ['REQ-ERR-06'],
    values: [
      {
        value: '401',
        says: 'an Authorization that is not "Bearer <token>" is a 401 (error="invalid_request"), as a missing or unknown token',
        realizes: ['a malformed Authorization value (not "Bearer <token>"): 401'],
        recorded: 'Authorization "Bearer <not a token>" was refused with 401',
      },
      {
        value: '400',
        says: 'an Authorization that is not "Bearer <token>" is a 400 Bad Request (RFC 6750 §3.1 invalid_request); a missing or unknown token stays a 401',
        realizes: ['a malformed Authorization value: 400 (RFC 6750 §3.1 invalid_request)'],
        recorded: 'Authorization "Bearer <not a token>" was refused with 400',
      },
    ],
  },
  scopeEnforcement: {
    requirements: ['REQ-AUTH-14'],
    values: [
      {
        value: 'none',
        says: "no endpoint looks at the token's scopes",
        realizes: ['none enforced'],
        recorded: 'cannot be seen from outside',
      },
      {
        value: 'read-write',
        says: 'GET needs the read scope, every other method the write scope (403 without)',
        realizes: ['read for GET, write for the rest'],
        recorded: 'cannot be seen from outside',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
