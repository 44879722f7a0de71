// Where the spec leaves a choice open, the reference server makes it one way (strict) or the other reasonable way
// (alt). The suite must pass against both: that is how checks that assume our own choices are found before a partner
// finds them.
export interface Variant {
  name: 'strict' | 'alt';
  /** The token response: the record inside {data, code, message}, or the bare record ("Exact response envelope … not shown"). */
  tokenEnvelope: boolean;
  /** Status of a creation (POST /oauth/token, POST /webhooks): 200 or 201. */
  creationStatus: 200 | 201;
  /** The webhook public key: SPKI PEM at data.publicKey, or a JWK (OKP/Ed25519) at data.key.jwk. */
  webhookKeyFormat: 'pem' | 'jwk';
  /** `page`: a 0-based page index, or an item offset ("the page offset" reads either way). */
  pageMode: 'index' | 'offset';
  /** The order when `sort` is absent. */
  defaultSort: 'ASC' | 'DESC';
  /** USSD choices: "1. Buy" or "1) Buy". */
  ussdNumbering: 'dot' | 'paren';
  /** The back choice: the next number after the last item, or a non-contiguous "0 Back". */
  ussdBack: 'next' | 'zero';
  /** Unknown extra fields in every object of `data` (clients must ignore them). */
  extraFields: boolean;
  /** The token record's scope: ["read","write"] or "read write" (its type is not shown). */
  scopeFormat: 'array' | 'string';
}

export const STRICT_VARIANT: Variant = {
  name: 'strict',
  tokenEnvelope: true,
  creationStatus: 200,
  webhookKeyFormat: 'pem',
  pageMode: 'index',
  defaultSort: 'ASC',
  ussdNumbering: 'dot',
  ussdBack: 'next',
  extraFields: false,
  scopeFormat: 'array',
};

export const ALT_VARIANT: Variant = {
  name: 'alt',
  tokenEnvelope: false,
  creationStatus: 201,
  webhookKeyFormat: 'jwk',
  pageMode: 'offset',
  defaultSort: 'DESC',
  ussdNumbering: 'paren',
  ussdBack: 'zero',
  extraFields: true,
  scopeFormat: 'string',
};

export const VARIANTS = { strict: STRICT_VARIANT, alt: ALT_VARIANT } as const;
export type VariantName = keyof typeof VARIANTS;
