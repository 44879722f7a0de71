// Public library API: `import { loadConfig, run, signRequest, verifySignature, contentDigest } from 'investment-api-conformance'`.
export { run, type RunOptions } from './api.js';
export { runClient, type ClientRunOptions } from './client/run.js';
export type { ClientConfig } from './client/config.js';
export { loadConfig, selectTarget } from './config/load.js';
export type { LoadedConfig, ResolvedTarget, Fixtures, WebhookConfig } from './config/types.js';
export {
  signRequest,
  verifySignature,
  profileComponents,
  PROFILE_COMPONENTS,
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
export type { Exchange } from './http/exchange.js';
export type { RunResult, CheckResult, CheckInfo, Level, Outcome, Totals, RunInfo } from './engine/index.js';
export type { ExpectedFailureMark } from './engine/index.js';
export type { ExpectedFailure } from './engine/index.js';
export type { Reporter } from './engine/index.js';
export {
  ConformanceError,
  UserError,
  ConfigError,
  TargetError,
  NothingToRerun,
  ERROR_CODES,
  errorCode,
  type ErrorCode,
} from './errors.js';
