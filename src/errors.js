'use strict';
// Errors a user can act on carry an exit code; the CLI prints their message as one line.
const EXIT = Object.freeze({ OK: 0, DIFFERS: 1, USAGE: 2, FATAL: 3, SAFETY: 4, SIGINT: 130, SIGTERM: 143 });

class S3BlitzError extends Error {
  constructor(message, { exitCode = EXIT.FATAL, code, cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = this.constructor.name;
    this.exitCode = exitCode;
    if (code) this.code = code;
  }
}
class UsageError extends S3BlitzError {
  constructor(message, opts = {}) { super(message, { ...opts, exitCode: EXIT.USAGE }); }
}
class FatalError extends S3BlitzError {
  constructor(message, opts = {}) { super(message, { ...opts, exitCode: EXIT.FATAL }); }
}
class SafetyError extends S3BlitzError {
  constructor(message, opts = {}) { super(message, { ...opts, exitCode: EXIT.SAFETY }); }
}

// One object's problem, not the run's: the copy report counts it under its status.
class ObjectError extends Error {
  constructor(status, reason, cause) {
    super(reason, cause ? { cause } : undefined);
    this.status = status; // 'failed' | 'vanished' | 'skipped' | 'changed'
  }
}

module.exports = { EXIT, S3BlitzError, UsageError, FatalError, SafetyError, ObjectError };
