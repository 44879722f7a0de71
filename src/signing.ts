// The signing face of the package, `investment-api-conformance/signing`: what a client application needs to sign its
// requests and verify webhook deliveries (RFC 9421, RFC 9530), without loading the engine, the reports or the schemas.
// The package's main entry point re-exports it.
export {
  signRequest,
  verifySignature,
  profileComponents,
  PROFILE_COMPONENTS,
  DEFAULT_SIGNING_PROFILE,
  type SigningProfile,
  type SignOptions,
  type SignedHeaders,
  type VerifyOptions,
  type SignatureVerdict,
  type SignatureFailure,
  type SignedMessage,
} from './http/signature.js';
export { signatureBase, signatureParamsValue, SignatureBaseError } from './http/signature-base.js';
export { KeyError, type PrivateKeyInput, type PublicKeyInput } from './http/keys.js';
export { contentDigest, verifyContentDigest } from './http/digest.js';
export type { HttpMessage, MessageInput, HeadersInput } from './http/message.js';
