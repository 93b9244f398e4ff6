/** Errors that end a command with a documented exit code and one clear line on stderr. */
import { EXIT, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  readonly exitCode: ExitCode;
  /** A second line telling the user what to do (optional). */
  readonly hint?: string;
  constructor(message: string, exitCode: ExitCode, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/** Bad flags, values, files or environment: nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) { super(message, EXIT.USAGE, hint); }
}

/** No credentials, or the service refused them. */
export class AuthError extends CliError {
  constructor(message: string, hint?: string) { super(message, EXIT.AUTH, hint); }
}

export class InterruptedError extends CliError {
  /**
   * `hint`: what goes on without svc (a started scan keeps running). `waitingToRetry`: it came during
   * a wait to send a call again, which is then not in flight (the service did not take it).
   */
  constructor(signal: 'SIGINT' | 'SIGTERM' = 'SIGINT', hint?: string, readonly waitingToRetry = false) {
    super(`interrupted by ${signal}`, signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED, hint);
  }
}
