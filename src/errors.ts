/**
 * Errors a user can cause end the process with one line and a documented exit code, never a stack trace.
 * Exit 2: usage or configuration. Exit 3: the target cannot be reached or gives no token.
 */
export class UserError extends Error {
  constructor(message: string, readonly exitCode: 2 | 3) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad command line or configuration (exit 2). The message says what is wrong and what to do. */
export class ConfigError extends UserError {
  constructor(message: string) {
    super(message, 2);
  }
}

/** The target is unreachable or no token could be obtained (exit 3). */
export class TargetError extends UserError {
  constructor(message: string) {
    super(message, 3);
  }
}
