// The errors a user can cause or meet, each with a stable code (as Node's ERR_* and undici's UND_ERR_*): a script or a
// person can act on the code without parsing the message, and the message may be reworded freely. The codes are a
// public contract: one is never renamed, reused for another meaning or given another exit code; a new meaning gets a
// new code. This module imports nothing, so every layer (the HTTP client, the engine, the kit, the CLI) may import it.

/**
 * Every code, with the exit code of the process it ends in and what it means. `exitCode` null: the error ends one
 * check, not the process; it is the `code` of that check's finding in the JSON report (`checks[].finding.code`), and
 * the run's exit code follows the run's outcomes and --fail-on. Read by the docs and the tests: keep it complete.
 */
export const ERROR_CODES = {
  // Exit 2: the command line, the config or a file given cannot be used; nothing was sent to the target.
  CONFORMANCE_ERR_USAGE: {
    exitCode: 2,
    meaning:
      'an option or argument of the command line cannot be taken: an unknown option, a value of the wrong form (a number, a duration, a port, --fail-on, --choice, --grep), an unknown suite, fault or check id, or --fault/--variant/--choice with a target other than the built-in one',
  },
  CONFORMANCE_ERR_NO_CHECK_SELECTED: {
    exitCode: 2,
    meaning: 'no check matches --suite, --grep and the checks to rerun',
  },
  CONFORMANCE_ERR_OPTION_FILE: {
    exitCode: 2,
    meaning:
      'a file given to an option (--expected-failures, --rerun-failed, --public-key, --webhook-ca, curl -d @FILE) or the REPORT of replay does not exist, cannot be read or holds no PEM certificate; or --pdf finds no browser to print with (--chromium, CONFORMANCE_CHROMIUM)',
  },
  CONFORMANCE_ERR_CONFIG_NOT_FOUND: {
    exitCode: 2,
    meaning:
      'the config file (--config FILE, or conformance.config.json in the current folder) does not exist or cannot be read',
  },
  CONFORMANCE_ERR_CONFIG: {
    exitCode: 2,
    meaning:
      'the config file is not valid: not JSON, a field its schema refuses, or a value of the wrong form (a URL, a port, an id, a proxy that is not an http(s) URL or "none", a clientKeyPassphrase written in the file rather than as ${NAME})',
  },
  CONFORMANCE_ERR_CONFIG_ENV: {
    exitCode: 2,
    meaning:
      'the config uses ${NAME} for an environment variable that is not set or is empty, or has a "${" that starts no ${NAME}; or HTTPS_PROXY / HTTP_PROXY (or their lower-case forms) holds no usable http(s) proxy URL',
  },
  CONFORMANCE_ERR_CONFIG_FILE: {
    exitCode: 2,
    meaning:
      "a file the config names (privateKeyFile, caFile, clientCertFile, clientKeyFile, webhook.tls certFile/keyFile; the webhookCa of a client --config) does not exist or cannot be read, or cannot be used (the caFile holds no PEM certificate, the webhook's TLS certificate or key is not valid, no PEM client certificate or key, a key that is not the certificate's, an encrypted key without or with the wrong passphrase); a relative path starts from the config file's folder",
  },
  CONFORMANCE_ERR_WEBHOOK_LISTEN: {
    exitCode: 2,
    meaning:
      'the webhook receiver cannot listen on webhook.listen (the port is taken, or not allowed): free it or choose another',
  },
  CONFORMANCE_ERR_UNKNOWN_TARGET: {
    exitCode: 2,
    meaning:
      '--target names no target of the config file (or there is no config file, so the only target is the built-in "local")',
  },
  CONFORMANCE_ERR_CLIENT_COMMAND: {
    exitCode: 2,
    meaning:
      'conformance client: the COMMAND after -- cannot be started (no such file or program on PATH, or not executable); nothing was judged',
  },
  CONFORMANCE_ERR_KEY: {
    exitCode: 2,
    meaning:
      "a key is not a usable Ed25519 key: the target's private key (PKCS8 PEM) or the --public-key of verify-evidence",
  },
  CONFORMANCE_ERR_EXPECTED_FAILURES: {
    exitCode: 2,
    meaning:
      'the --expected-failures file is not valid: not JSON, not of its schema, an expires that is not a date, an id listed twice or that no check has',
  },
  CONFORMANCE_ERR_RERUN_REPORT: {
    exitCode: 2,
    meaning:
      'the --rerun-failed file, or the REPORT of replay, is not a conformance JSON report (one written by run --json FILE)',
  },
  CONFORMANCE_ERR_OUTPUT_PATH: {
    exitCode: 2,
    meaning:
      'a path to write to cannot be used: a report path (--json, --junit, --html, --har) that is a folder or whose folder does not exist or cannot be written, an --evidence directory that is a file or not empty, a file keygen or init would write that exists already or cannot be written',
  },
  CONFORMANCE_ERR_HAR: {
    exitCode: 2,
    meaning:
      'the HAR file given to judge cannot be read as HAR 1.2: not JSON (the line says where, and "cut short" for a truncated file), no log.entries, an entry of the wrong shape (the line names the entry and the member) or a request URL that is not absolute',
  },
  CONFORMANCE_ERR_EVIDENCE: {
    exitCode: 2,
    meaning:
      'verify-evidence: the directory is not an evidence package, or a file of it cannot be read (a package that does not verify exits 1)',
  },
  CONFORMANCE_ERR_JOURNAL: {
    exitCode: 2,
    meaning:
      "a file of the target's restore journal (.conformance/restore/<target>/ beside the config) cannot be read or written, or is not a journal: the line names it; put back by hand what it lists, then delete it",
  },
  CONFORMANCE_ERR_PROXY_CA: {
    exitCode: 2,
    meaning:
      "the proxy's CA (--ca-out FILE and its key FILE-key.pem beside it) cannot be used: a file unreadable or not PEM, a key that is not the certificate's, a key file readable by others than its owner (mode other than 0600), a certificate that is no CA or has expired, or a new CA cannot be written there (no such folder, no permission); the line names the file: fix it, or delete both files and a new CA is made",
  },
  CONFORMANCE_ERR_PROXY_LISTEN: {
    exitCode: 2,
    meaning:
      'conformance proxy cannot listen on --port (the port is taken, or not allowed): free it or choose another (--port 0 picks a free one)',
  },
  CONFORMANCE_ERR_JUDGE_SIDE: {
    exitCode: 2,
    meaning:
      "judge or proxy --side: not server, client or both; or the client's side asked for without the client's identity (judge without --target NAME: the client is judged as a target of the config names it, its clientId, keyId and privateKeyFile or privateKey)",
  },
  CONFORMANCE_ERR_INSTALL: {
    exitCode: 2,
    meaning:
      "a file of conformance's own package (the requirement catalog) is missing or broken: reinstall conformance",
  },
  // Exit 3: the target cannot be used; no check could run.
  CONFORMANCE_ERR_TARGET_UNREACHABLE: {
    exitCode: 3,
    meaning:
      "the target's token endpoint could not be reached: nothing listens at the address (refused), the host name does not resolve, no route to it, the connection closed before any answer, no response in time, or TLS failed (a certificate not trusted here, or not for that host, or the server refused the handshake for want of a client certificate or one it accepts); or the proxy refused (407, 403, 5xx to CONNECT) or cannot be reached; the message names which, and what to do",
  },
  CONFORMANCE_ERR_NO_TOKEN: {
    exitCode: 3,
    meaning:
      "the target answered the token request without a usable token (an error status, with the server's {code, message}; a body without a token; an answer that is not usable HTTP or passed --max-body; or throttling past what the run may wait)",
  },
  CONFORMANCE_ERR_TARGET: {
    exitCode: 3,
    meaning: 'the target cannot be used, for a reason no more precise code names',
  },
  CONFORMANCE_ERR_REQUEST_FAILED: {
    exitCode: 3,
    meaning:
      'conformance curl: the request got no usable answer (connection refused or reset, no response in time, a body over the cap, throttled past what it may wait)',
  },
  CONFORMANCE_ERR_RESTORE_FAILED: {
    exitCode: 3,
    meaning:
      'conformance restore: a change an earlier run left on the target (the restore journal) could not be put back: the line names it, why, and the request that puts it back by hand; the journal keeps it for the next try',
  },
  // Exit 0: not a failure; the process says so on stdout, without the code.
  CONFORMANCE_ERR_NOTHING_TO_RERUN: {
    exitCode: 0,
    meaning: 'the --rerun-failed report has no failed, warned or errored check: nothing is run',
  },
  // Exit 4: ours to fix.
  CONFORMANCE_ERR_INTERNAL: {
    exitCode: 4,
    meaning:
      'a bug of conformance; set CONFORMANCE_DEBUG=1 for details and please report it. Also the code of a finding "the check itself broke" (outcome error)',
  },
  // In a check's finding: the run goes on.
  CONFORMANCE_ERR_CHECK_TIMEOUT: {
    exitCode: null,
    meaning: 'a check did not finish within its time limit (outcome error)',
  },
  CONFORMANCE_ERR_INTERRUPTED: {
    exitCode: null,
    meaning:
      'the run was interrupted (SIGINT, SIGTERM, or the AbortSignal of a library caller) while the check ran (outcome error) or before it started (skipped): the run puts back what it changed, writes its reports with the verdict INTERRUPTED and exits 130 (SIGINT) or 143 (SIGTERM)',
  },
  CONFORMANCE_ERR_BUDGET_SPENT: {
    exitCode: 1,
    meaning: "the run's --budget ran out before the check could run or finish (outcome error); the run exits 1",
  },
  CONFORMANCE_ERR_THROTTLED_OUT: {
    exitCode: 1,
    meaning:
      'the server kept answering 429 past what the run may wait: the check was not judged (outcome error); the run exits 1',
  },
  CONFORMANCE_ERR_TRANSPORT: {
    exitCode: null,
    meaning:
      'the server gave no usable HTTP response (refused, reset, no response in time, a body over --max-body): a finding against the server (fail or warn)',
  },
  CONFORMANCE_ERR_CREDENTIALS_REFUSED: {
    exitCode: null,
    meaning:
      "a request was not sent: it would have carried the client's credentials to an origin other than the target's (a redirect elsewhere); a finding against the server (fail or warn)",
  },
  CONFORMANCE_ERR_UNDECLARED_SHARED_STATE: {
    exitCode: null,
    meaning:
      "a check sent a request that may change shared state it does not declare in `uses`: a bug of the check's (outcome error)",
  },
  CONFORMANCE_ERR_REPORTER: {
    exitCode: null,
    meaning:
      'a reporter failed (a report could not be written): said in one line; the other reports are written and the exit code is unchanged',
  },
} as const satisfies Record<string, { exitCode: 0 | 1 | 2 | 3 | 4 | null; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes whose errors end the process with exit code E. */
type CodeExiting<E> = { [K in ErrorCode]: (typeof ERROR_CODES)[K]['exitCode'] extends E ? K : never }[ErrorCode];

/** The code of an error of conformance's (from this copy of the module or another), or undefined for any other value. */
export function errorCode(err: unknown): ErrorCode | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : undefined;
}

/** The one format of an error line: the message, then the code in brackets (`conformance: ` is the caller's). */
export function withCode(message: string, code: ErrorCode): string {
  return `${message} [${code}]`;
}

/** The base of every error with a code. */
export class ConformanceError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * Errors a user can cause end the process with one line and a documented exit code, never a stack trace.
 * Exit 2: usage or configuration. Exit 3: the target cannot be reached or gives no token.
 */
export class UserError extends ConformanceError {
  constructor(
    message: string,
    readonly exitCode: 2 | 3,
    code: CodeExiting<2 | 3> = exitCode === 2 ? 'CONFORMANCE_ERR_USAGE' : 'CONFORMANCE_ERR_TARGET',
  ) {
    super(message, code);
  }
}

/** Bad command line or configuration (exit 2). The message says what is wrong and what to do. */
export class ConfigError extends UserError {
  constructor(message: string, code: CodeExiting<2> = 'CONFORMANCE_ERR_CONFIG') {
    super(message, 2, code);
  }
}

/** The target is unreachable or no token could be obtained (exit 3). */
export class TargetError extends UserError {
  constructor(message: string, code: CodeExiting<3> = 'CONFORMANCE_ERR_TARGET') {
    super(message, 3, code);
  }
}

/** An earlier report with nothing to run again: a success to report, not an error (the CLI exits 0 and says so). */
export class NothingToRerun extends ConformanceError {
  constructor(readonly report: string) {
    super(`${report} has no failed, warned or errored check to rerun`, 'CONFORMANCE_ERR_NOTHING_TO_RERUN');
  }
}

/** Key material that is not an Ed25519 key of the expected form; the message is a reason to follow the key's name. */
export class KeyError extends ConformanceError {
  constructor(message: string) {
    super(message, 'CONFORMANCE_ERR_KEY');
  }
}

/** The server kept answering 429 past what the run may wait: no check can be judged by this server any more. */
export class ThrottledOut extends ConformanceError {
  constructor(message: string) {
    super(message, 'CONFORMANCE_ERR_THROTTLED_OUT');
  }
}

/** A check ran past its time limit. */
export class CheckTimeout extends ConformanceError {
  constructor(readonly timeoutMs: number) {
    super(`the check did not finish within ${timeoutMs} ms`, 'CONFORMANCE_ERR_CHECK_TIMEOUT');
  }
}

/** A check sent a request that may change shared state it did not declare: a bug of the check's, never the server's. */
export class UndeclaredSharedState extends ConformanceError {
  constructor(message: string) {
    super(message, 'CONFORMANCE_ERR_UNDECLARED_SHARED_STATE');
  }
}

/**
 * The run was interrupted: by SIGINT or SIGTERM (the CLI), or by the AbortSignal a library caller gave. The reason the
 * signal aborts with; a check the interruption cut short carries its code. `exitCode` is the shell's for the signal.
 */
export class RunInterrupted extends ConformanceError {
  constructor(readonly signal?: string) {
    super(`the run was interrupted${signal !== undefined ? ` (${signal})` : ''}`, 'CONFORMANCE_ERR_INTERRUPTED');
  }

  /** 128 + the signal's number, as a shell reports a process a signal ended: 143 for SIGTERM, else 130 (SIGINT). */
  get exitCode(): 130 | 143 {
    return this.signal === 'SIGTERM' ? 143 : 130;
  }
}

/** A file of the restore journal that cannot be read, written or understood (exit 2): the message names it. */
export class JournalError extends UserError {
  constructor(message: string) {
    super(message, 2, 'CONFORMANCE_ERR_JOURNAL');
  }
}

/** `conformance restore` could not put back every change an earlier run left (exit 3): the message names each. */
export class RestoreFailed extends UserError {
  constructor(message: string) {
    super(message, 3, 'CONFORMANCE_ERR_RESTORE_FAILED');
  }
}

/** The intercepting proxy's CA files cannot be used (exit 2): the message names the file and what to do. */
export class ProxyCaError extends UserError {
  constructor(message: string) {
    super(message, 2, 'CONFORMANCE_ERR_PROXY_CA');
  }
}

/** A HAR file `conformance judge` cannot read (exit 2): one line, naming where it is wrong and what to do. */
export class HarError extends UserError {
  constructor(message: string) {
    super(message, 2, 'CONFORMANCE_ERR_HAR');
  }
}

/** `conformance proxy` cannot listen on its port (exit 2): taken, or not allowed. */
export class ProxyListenError extends UserError {
  constructor(message: string) {
    super(message, 2, 'CONFORMANCE_ERR_PROXY_LISTEN');
  }
}

/** `--side` of judge or proxy cannot be judged (exit 2): not a side, or the client's side without the client's identity. */
export class JudgeSideError extends UserError {
  constructor(message: string) {
    super(message, 2, 'CONFORMANCE_ERR_JUDGE_SIDE');
  }
}
