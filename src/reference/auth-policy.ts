// The policy of request authentication: what auth.ts enforces, as data. Apart from auth.ts so that the server's state
// (context.ts) can hold a policy without importing the code that reads it.

/**
 * The knobs of authentication. Defaults are the strict reading of the spec; the fault catalog relaxes one at a time
 * to show that a check notices.
 */
export interface AuthPolicy {
  /** Tolerated clock difference for `created` (future) and `expires` (past). */
  skewSeconds: number;
  /** Longest accepted expires - created, and oldest accepted created. */
  maxSignatureWindowSeconds: number;
  verifySignatures: boolean;
  /** Every profile header the request carries must be covered, plus @method and the target. */
  requireFullCoverage: boolean;
  requireCreatedExpires: boolean;
  verifyContentDigest: boolean;
  requireIdempotencyKey: boolean;
  enforceTokenExpiry: boolean;
  requireMatchingClientId: boolean;
}

export const DEFAULT_AUTH_POLICY: Readonly<AuthPolicy> = Object.freeze({
  skewSeconds: 30,
  // The window the signing client uses by default (DEFAULT_SIGNATURE_TTL_SECONDS): long enough for a slow network,
  // short against replay.
  maxSignatureWindowSeconds: 300,
  verifySignatures: true,
  requireFullCoverage: true,
  requireCreatedExpires: true,
  verifyContentDigest: true,
  requireIdempotencyKey: true,
  enforceTokenExpiry: true,
  requireMatchingClientId: true,
});
