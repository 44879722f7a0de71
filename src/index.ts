// Public library API: `import { loadConfig, run, signRequest, verifySignature, contentDigest } from 'investment-api-conformance'`;
// a client application that only signs imports `investment-api-conformance/signing` (src/signing.ts), the same functions.
export { run, restore, type RestoreResult, type RunOptions } from './api.js';
export { runClient, type ClientRunOptions } from './client-api.js';
export { judge, type JudgeOptions } from './judge-api.js';
export type { ClientConfig } from './client/config.js';
export { loadConfig, selectTarget } from './config/load.js';
export type { LoadedConfig, ResolvedTarget, Fixtures, WebhookConfig } from './config/types.js';
export * from './signing.js';
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
  RunInterrupted,
  ERROR_CODES,
  errorCode,
  type ErrorCode,
} from './errors.js';
