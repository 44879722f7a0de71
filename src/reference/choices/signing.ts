// The open points of request signing ("Exact rules for building the signature base and the signing algorithm
// parameters: not shown", REQ-AUTH-13) and of the digest's algorithm (REQ-HDR-09): the window and clock skew a verifier
// allows, the @target-uri it rebuilds (behind a TLS-terminating proxy, not the one the client signed), whether created
// and expires may be left out, whether a query must be covered, which RFC 9530 algorithms it takes. The run learns the
// first two when it opens (suites/kit/signing-profile.ts) and records all five (signing.info.*). auth.ts reads them.
import type { ChoiceDef } from './types.js';

/** The window and skew of signatureWindow=60-no-skew: FAPI 2.0's one minute, and a clock taken as exact. */
export const SHORT_WINDOW = { maxWindowSeconds: 60, skewSeconds: 0 } as const;

/** The @target-uri a server behind a TLS-terminating proxy rebuilds: the proxy's upstream, over http. */
export const PROXIED_ORIGIN = 'http://investment-api.internal:8080';

export const SIGNING_CHOICES = {
  signatureWindow: {
    requirements: ['REQ-AUTH-13'],
    values: [
      {
        value: '300-skew-30',
        says: 'a signature is valid for up to 300 s between created and expires, with 30 s of clock skew tolerated either way',
        realizes: ['windows up to 300 s, with clock skew tolerated'],
        recorded: '^window: a 300 s window [^;]*: taken \\(\\d+\\); created 20 s ahead [^:]*: taken',
      },
      {
        value: '60-no-skew',
        says: 'at most 60 s between created and expires, and no clock skew: created may not be ahead of the server, nor expires behind it (FAPI 2.0)',
        realizes: ['windows of at most 60 s, without clock skew'],
        recorded: '^window: a 300 s window [^;]*: refused \\(\\d+\\); created 20 s ahead [^:]*: refused',
      },
    ],
  },
  signatureTarget: {
    requirements: ['REQ-AUTH-13', 'REQ-HDR-16'],
    values: [
      {
        value: 'any',
        says: '@target-uri is verified as the client sent it: a signature over @target-uri, over @path and @query, or both, verifies',
        realizes: [
          '@target-uri verified as the client sent it: signatures over @target-uri or over @path and @query both verify',
          '@path and @query taken in place of @target-uri',
        ],
        recorded:
          '^target: over @target-uri without @path/@query: taken \\(\\d+\\); over @path and @query without @target-uri: taken',
      },
      {
        value: 'path-query',
        says: `the server rebuilds @target-uri as ${PROXIED_ORIGIN}/… (behind a TLS-terminating proxy): only a signature over @path and @query, without @target-uri, verifies`,
        realizes: [
          '@target-uri rebuilt otherwise (behind a TLS-terminating proxy): only signatures over @path and @query verify',
          '@path and @query taken in place of @target-uri',
        ],
        recorded:
          '^target: over @target-uri without @path/@query: refused \\(\\d+\\); over @path and @query without @target-uri: taken',
      },
      {
        value: 'target-uri',
        says: 'a signature must cover @target-uri: one over @path and @query in its place is refused (the components a verifier requires are its policy, RFC 9421 §3.2)',
        realizes: ['only @target-uri taken'],
        recorded:
          '^target: over @target-uri without @path/@query: taken \\(\\d+\\); over @path and @query without @target-uri: refused',
      },
    ],
  },
  signatureParams: {
    requirements: ['REQ-AUTH-13'],
    values: [
      {
        value: 'required',
        says: 'a signature without created or without expires is refused',
        realizes: ['created and expires required'],
        recorded: '^without created [^:]*: refused \\(\\d+\\); without expires [^:]*: refused',
      },
      {
        value: 'optional',
        says: 'created and expires are checked when present: a signature without them is verified and served',
        realizes: ['created and expires optional'],
        recorded: '^without created [^:]*: taken \\(\\d+\\); without expires [^:]*: taken',
      },
    ],
  },
  queryCoverage: {
    requirements: ['REQ-AUTH-13'],
    values: [
      {
        value: 'required',
        says: 'a signature over @path must cover @query too when the request has a query',
        realizes: ['@query covered when the request has a query'],
        recorded: '^a GET with a query signed over @path without @query .*: refused \\(\\d+\\)$',
      },
      {
        value: 'optional',
        says: 'a signature over @path covers the target even when the request has a query and @query is not covered',
        realizes: ['@path without @query accepted'],
        recorded: '^a GET with a query signed over @path without @query .*: taken \\(\\d+\\)$',
      },
    ],
    // A server that requires @target-uri refuses any signature without it, with or without @query.
    hiddenBy: [
      {
        choice: 'signatureTarget',
        value: 'target-uri',
        recorded: '^a GET with a query signed over @path without @query .*: refused \\(\\d+\\)$',
      },
    ],
  },
  digestAlgorithms: {
    requirements: ['REQ-HDR-09'],
    values: [
      {
        value: 'sha-512',
        says: 'Content-Digest must carry sha-512, the algorithm the spec names; sha-256 alone is refused',
        realizes: ['only sha-512 taken'],
        recorded: '^a PUT whose Content-Digest is sha-256 alone [^:]*: refused \\(\\d+\\)$',
      },
      {
        value: 'any',
        says: 'a Content-Digest of any secure RFC 9530 algorithm (sha-256 as well as sha-512) is taken when it matches the body',
        realizes: ['other RFC 9530 algorithms (sha-256) taken too'],
        recorded: '^a PUT whose Content-Digest is sha-256 alone [^:]*: taken \\(\\d+\\)$',
      },
    ],
  },
} as const satisfies Record<string, ChoiceDef>;
