'use strict';
// Runs a command action: exit codes, one-line errors, signals, EPIPE, --api-example.
const { S3BlitzError, EXIT } = require('../errors');
const { describeS3Error } = require('../stores/s3-errors');

let debug = false;

function writeOut(text) {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

function apiExample(fnName, libOpts) {
  const shown = {};
  for (const [k, v] of Object.entries(libOpts)) if (v !== undefined) shown[k] = v;
  const body = JSON.stringify(shown, null, 2).replace(/^ {2}"([A-Za-z_$][\w$]*)":/gm, '  $1:');
  return `const s3blitz = require('s3blitz');\n\nconst result = await s3blitz.${fnName}(${body});\n`;
}

function installSignals(controller) {
  const handler = (sig) => {
    const code = sig === 'SIGINT' ? EXIT.SIGINT : EXIT.SIGTERM;
    if (controller.signal.aborted) process.exit(code); // second signal: at once
    process.exitCode = code;
    controller.abort(Object.assign(new Error(`interrupted by ${sig}`), { exitCode: code, interrupted: true }));
    setTimeout(() => process.exit(code), 2000).unref();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

// action(libOpts-builder) → wraps with error handling.
function runAction(fn) {
  return async (...args) => {
    const cmd = args[args.length - 1];
    const opts = cmd.opts();
    debug = Boolean(opts.debug);
    const controller = new AbortController();
    installSignals(controller);
    try {
      const code = await fn({ args: args.slice(0, -2), opts, cmd, signal: controller.signal });
      if (controller.signal.aborted) return;
      process.exitCode = code || 0;
    } catch (err) {
      if (controller.signal.aborted && controller.signal.reason && controller.signal.reason.interrupted) {
        process.stderr.write(`s3blitz: ${controller.signal.reason.message}\n`);
        process.exitCode = controller.signal.reason.exitCode;
        return;
      }
      reportError(err);
    }
  };
}

function reportError(err) {
  let e = err;
  if (!(e instanceof S3BlitzError)) e = e && (e.$metadata || e.code) ? describeS3Error(e) : e;
  const known = e instanceof S3BlitzError;
  process.stderr.write(`s3blitz: ${known ? e.message : `internal error: ${err && err.message}`}\n`);
  if (debug) process.stderr.write(`${(err && err.stack) || err}\n${err && err.cause ? `cause: ${err.cause.stack || err.cause}\n` : ''}`);
  else if (!known) process.stderr.write('(run with --debug for details)\n');
  process.exitCode = known ? e.exitCode : EXIT.FATAL;
}

module.exports = { runAction, writeOut, apiExample, reportError };
