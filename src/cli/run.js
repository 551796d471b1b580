'use strict';
// Runs a command action: exit codes, one-line errors, signals, EPIPE, --api-example.
const { S3BlitzError, EXIT, UsageError } = require('../errors');
const { describeS3Error } = require('../stores/s3-errors');
const { Journal } = require('../journal/journal');
const { CLI, NUMERIC, parseOptions } = require('../options');
const { clearLine } = require('../progress');
const { statsText } = require('../report/format');

let debug = false;

// Output to stdout and stderr clears the progress line first (they may share a terminal).
function writeOut(text) {
  clearLine();
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

function writeErr(text) {
  clearLine();
  process.stderr.write(text);
}

// The lines every run that writes or deletes ends with on stderr, and its exit code.
// done: what the objects would have been ('copied', 'deleted').
function endOfRun(r, opts, done) {
  if (r.stoppedByFailures) writeErr(`s3blitz: stopped after ${r.stoppedByFailures.count} objects failed the same way and none was ${done} (--max-failures)\n`);
  if (opts.verbose) writeErr(`${statsText(r.stats)}\n`);
  if (r.interrupted) writeErr(`s3blitz: interrupted: run the same command again to resume${r.journal ? ` (journal ${r.journal})` : ''}, or add --no-resume to start afresh\n`);
  if (r.noMatch) writeErr(`s3blitz: ${r.noMatch}\n`);
  return r.ok ? 0 : 1;
}

const FORMATS = ['text', 'json', 'markdown', 'html'];
const BY_EXTENSION = { '.html': 'html', '.htm': 'html', '.md': 'markdown', '.markdown': 'markdown', '.json': 'json' };

// The one place the CLI picks its output format: --format, else --json, else the
// extension of --output (report.html, report.md, report.json), else text.
function formatOf(opts) {
  if (opts.format !== undefined) {
    if (!FORMATS.includes(opts.format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not ${JSON.stringify(opts.format)}`);
    if (opts.json && opts.format !== 'json') throw new UsageError(`--json and --format ${opts.format} contradict each other`);
    return opts.format;
  }
  if (opts.json) return 'json';
  if (typeof opts.output === 'string') return BY_EXTENSION[require('path').extname(opts.output).toLowerCase()] || 'text';
  return 'text';
}

// Options whose CLI text is a number (NUMERIC, from the options table): the library example
// passes them as numbers.

// The library call the command makes, as a CommonJS program that runs as written (no
// top-level await): numbers as numbers, the result printed as JSON (cat: the bytes).
function apiExample(fnName, libOpts, { stream = false } = {}) {
  // The call must be one the library takes: a misspelled or out-of-range option fails here,
  // in one line, as the call itself would.
  parseOptions(libOpts, fnName);
  const shown = {};
  for (const [k, v] of Object.entries(libOpts)) {
    if (v === undefined) continue;
    shown[k] = NUMERIC.has(k) && typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  }
  const body = JSON.stringify(shown, null, 2).replace(/^ {2}"([A-Za-z_$][\w$]*)":/gm, '  $1:').replace(/^ {2}stream: "process\.stdin"/m, '  stream: process.stdin');
  const use = stream
    ? '  .then(({ stream }) => stream.pipe(process.stdout))'
    : '  .then((result) => console.log(JSON.stringify(result, null, 2)))';
  return `const s3blitz = require('s3blitz');\n\ns3blitz.${fnName}(${body})\n${use}\n` +
    '  .catch((err) => {\n    console.error(err.message);\n    process.exitCode = err.exitCode || 1;\n  });\n';
}

const GRACE_MS = CLI.graceMs;

// First SIGINT / SIGTERM: graceful commands stop starting work and let requests in flight
// finish for a grace period, then abort them; others abort at once. A second signal
// flushes the journals and exits at once.
function installSignals(hard, soft, graceful) {
  let count = 0;
  const handler = (sig) => {
    const code = sig === 'SIGINT' ? EXIT.SIGINT : EXIT.SIGTERM;
    const reason = Object.assign(new Error(`interrupted by ${sig}`), { exitCode: code, interrupted: true });
    process.exitCode = code;
    if (++count > 1) {
      Journal.flushAll();
      writeErr(`\ns3blitz: interrupted again: exiting now${graceful ? '; run the same command again to resume, or add --no-resume to start afresh' : ''}\n`);
      process.exit(code);
    }
    if (graceful) {
      writeErr(`\ns3blitz: ${sig}: finishing requests in flight (up to ${GRACE_MS / 1000}s); press Ctrl-C again to exit at once\n`);
      soft.abort(reason);
      setTimeout(() => hard.abort(reason), GRACE_MS).unref();
    } else {
      hard.abort(reason);
      setTimeout(() => process.exit(code), 2000).unref();
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

// What only some commands take, refused in one line by the others: "-" (stdin, stdout) is
// cp's; --version-id (one version of one key) is cp's, cat's and head's.
const STDIO = new Set(['cp']);
const ONE_VERSION = new Set(['cp', 'cat', 'head']);
function refuseMisplaced(cmd, args, opts) {
  const name = cmd.name();
  if (!STDIO.has(name) && args.flat().includes('-')) {
    throw new UsageError(`${name} takes buckets and folders: "-" (stdin or stdout) is for cp (cp - s3://bucket/key, cp s3://bucket/key -)`);
  }
  if (!ONE_VERSION.has(name) && opts.versionId !== undefined) {
    throw new UsageError(`--version-id names one version of one key (cp, cat, head): ${name} reads a listing (--as-of gives the source as it was at a moment)`);
  }
}

// Wraps a command action: signals, exit codes, one-line errors.
function runAction(fn, { graceful = false } = {}) {
  return async (...args) => {
    const cmd = args[args.length - 1];
    const opts = cmd.opts();
    debug = Boolean(opts.debug);
    const hard = new AbortController();
    const soft = new AbortController();
    installSignals(hard, soft, graceful);
    try {
      refuseMisplaced(cmd, args.slice(0, -2), opts);
      const code = await fn({ args: args.slice(0, -2), opts, cmd, signal: hard.signal, stopSignal: soft.signal });
      const reason = (soft.signal.aborted && soft.signal.reason) || (hard.signal.aborted && hard.signal.reason);
      process.exitCode = reason && reason.interrupted ? reason.exitCode : code || 0;
    } catch (err) {
      const reason = hard.signal.aborted ? hard.signal.reason : soft.signal.aborted ? soft.signal.reason : null;
      if (reason && reason.interrupted) {
        writeErr(`s3blitz: ${reason.message}\n`);
        process.exitCode = reason.exitCode;
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
  writeErr(`s3blitz: ${known ? e.message : `internal error: ${err && err.message}`}\n`);
  if (debug) writeErr(`${(err && err.stack) || err}\n${err && err.cause ? `cause: ${err.cause.stack || err.cause}\n` : ''}`);
  else if (!known) writeErr('(run with --debug for details)\n');
  process.exitCode = known ? e.exitCode : EXIT.FATAL;
}

module.exports = { runAction, writeOut, writeErr, endOfRun, apiExample, reportError, formatOf, FORMATS };
