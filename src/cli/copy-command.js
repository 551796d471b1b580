'use strict';
// cp: a thin shell over the library's copy().
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, libraryOptions, versionOptions, metadataOptions } = require('./options');
const { runAction, writeOut, writeErr, endOfRun, apiExample, formatOf } = require('./run');
const report = require('../report');
const { Progress } = require('../progress');
const { help } = require('../options');
const { objectLog } = require('./object-log');

function targetOptions(cmd) {
  return cmd
    .option('--to-bucket <name>', 'target bucket (instead of s3://bucket/...)')
    .option('--to-prefix <prefix>', 'replace the source prefix with this prefix')
    .option('--add-prefix <prefix>', 'prepend this to every source key')
    .option('--to-key <js>', 'js:(key) => targetKey, from the whole source key')
    .option('--to-endpoint-url <url>', 'target endpoint, when it differs from the source\'s (objects then stream through this machine)')
    .option('--to-region <region>', 'target region')
    .option('--to-profile <name>', 'target credentials profile (objects then stream through this machine)');
}

function writeOptions(cmd) {
  return cmd
    .option('--acl <acl>', 'canned ACL, e.g. bucket-owner-full-control')
    .option('--storage-class <class>', 'storage class (default: the source object\'s)')
    .option('--cache-control <value>', 'Cache-Control (implies REPLACE)')
    .option('--content-type <value>', 'Content-Type (implies REPLACE)')
    .option('--content-disposition <value>', 'Content-Disposition (implies REPLACE)')
    .option('--content-encoding <value>', 'Content-Encoding (implies REPLACE)')
    .option('--content-language <value>', 'Content-Language (implies REPLACE)')
    .option('--expires <date>', 'Expires (implies REPLACE)')
    .option('--metadata <json>', 'user metadata as a JSON object (implies REPLACE; other metadata is carried over)')
    .option('--metadata-directive <directive>', 'COPY or REPLACE')
    .option('--tagging <tags>', 'tags as key=value&key2=value2 (replaces the source\'s tags)')
    .option('--sse <algorithm>', 'server-side encryption: AES256 or aws:kms')
    .option('--sse-kms-key-id <id>', 'KMS key for aws:kms')
    .option('--checksum-algorithm <algorithm>', help('checksumAlgorithm') + ' (default CRC64NVME)')
    .option('--no-overwrite', 'never replace an object of the target: every write carries If-None-Match: * (a key that exists is skipped; sync writes only missing keys)');
}

// journal: false for mv, which keeps none (its rerun finds what is left to move).
function concurrencyOptions(cmd, { journal = true } = {}) {
  cmd
    .option('--copy-concurrency <n>', help('copyConcurrency'))
    .option('--large-copy-concurrency <n>', help('largeCopyConcurrency'))
    .option('--part-concurrency <n>', help('partConcurrency'))
    .option('--large-copy-threshold <size>', help('largeCopyThreshold'))
    .option('--part-size <size>', 'part size (default: the source\'s own layout, else 64MiB, raised to fit 10,000 parts)')
    .option('--keep-part-layout', help('keepPartLayout'))
    .option('--max-queue-size <n>', help('maxQueueSize'))
    .option('--max-failures <n>', help('maxFailures'));
  if (!journal) return cmd;
  return cmd
    .option('--journal <file>', 'journal file (default: a file per command in $XDG_STATE_HOME/s3blitz or ~/.local/state/s3blitz)')
    .option('--no-journal', 'keep no journal (the run cannot be resumed)')
    .option('--no-resume', 'ignore the journal of an earlier run and start afresh')
    .option('--resume-max-age <age>', help('resumeMaxAge'));
}

const LOG_HELP = 'a line per object to file (- for stdout: the report then goes to stderr), as aws-cli prints them (copy: s3://a/k to s3://b/k); JSON lines with --json; -v is --log -';

const PASS = ['toBucket', 'toPrefix', 'addPrefix', 'toKey', 'toEndpointUrl', 'toRegion', 'toProfile', 'acl', 'storageClass', 'cacheControl',
  'contentType', 'contentDisposition', 'contentEncoding', 'contentLanguage', 'expires', 'metadata', 'metadataDirective', 'tagging', 'sse',
  'sseKmsKeyId', 'checksumAlgorithm', 'dryrun', 'partSize', 'copyConcurrency', 'largeCopyConcurrency', 'partConcurrency', 'largeCopyThreshold', 'maxQueueSize', 'keepPartLayout',
  'maxFailures', 'resumeMaxAge', 'versionId'];

function copyLibraryOptions(source, target, opts) {
  const o = libraryOptions(source, opts);
  if (target !== undefined) o.target = target;
  for (const k of PASS) if (opts[k] !== undefined) o[k] = opts[k];
  if (opts.pretend || opts.dryRun) o.dryrun = true;
  if (opts.journal !== undefined && opts.journal !== true) o.journal = opts.journal;
  if (opts.resume === false) o.resume = false;
  if (opts.overwrite === false) o.noOverwrite = true;
  return o;
}

// What cp, mv and sync print while they run: a dry run's planned copies (text only, unless
// the per-object log is on stdout: it has them), problems, and the per-object log's lines.
function copyProgressLines(fmt, { marked = false, log = null, move = false } = {}) {
  return (ev) => {
    if (log) log.copied(ev, { move });
    if (ev.status === 'planned') { if (fmt === 'text' && !(log && log.toStdout)) writeOut(report.plannedLine(ev, { marked })); }
    else if (ev.status !== 'copied') writeErr(report.problemLine(ev.status, ev.key, ev.reason));
  };
}

// The end of cp, mv and sync: the report (text only when asked for or something failed; on
// stderr when stdout has the per-object lines), failures by reason, statistics, resume hint;
// the exit code.
async function finishCopy(rep, r, fmt, opts, log = null) {
  if (log) await log.close();
  const out = log && log.toStdout ? writeErr : writeOut;
  if (fmt === 'json' || !opts.quiet || !r.ok) await out(rep[fmt]());
  if (r.stoppedByFailures) {
    for (const f of r.failureReasons) writeErr(`s3blitz: ${f.count.toLocaleString('en-US')} failed: ${f.reason}\n`);
  }
  return endOfRun(r, opts, 'copied');
}

function registerCopy(program) {
  const cmd = program.command('cp').alias('copy')
    .description('copy objects between buckets, folders and endpoints, in parallel')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder')
    .argument('[target]', 's3://bucket/prefix or a local folder');
  outputOptions(concurrencyOptions(writeOptions(targetOptions(metadataOptions(versionOptions(sourceOptions(connectionOptions(cmd)), { oneVersion: true }), { prefix: 'filter-' })))))
    .option('--version-id <id>', 'copy this version of the one key the source names (s3://bucket/key)')
    .option('--dryrun', 'list what would be copied, with sizes and totals; change nothing')
    .option('--dry-run', 'same as --dryrun')
    .option('--pretend', 'same as --dryrun (S3P)')
    .option('--log <file>', LOG_HELP)
    .addHelpText('after', `
Examples:
  $ s3blitz cp s3://src-bucket/data/ s3://dst-bucket/data/
  $ s3blitz cp s3://src-bucket/data/ ./data -v > copied.txt         # a line per object: download: s3://... to ...
  $ s3blitz cp --bucket src-bucket --to-bucket dst-bucket --prefix logs/2024/ --dryrun
  $ s3blitz cp s3://src-bucket s3://src-bucket --to-key "js:(key) => key + '.backup'"
  $ s3blitz cp s3://src-bucket/images/ ./images
  $ s3blitz cp ./build s3://site-bucket/ --cache-control 'max-age=300'
  $ s3blitz cp s3://src s3://dst --to-endpoint-url https://minio.example:9000 --to-profile minio
  $ s3blitz cp s3://src-bucket s3://dst-bucket --all-versions           # every version, oldest first
  $ s3blitz cp s3://src-bucket s3://restore-bucket --as-of 2024-06-01T12:00:00Z
  $ s3blitz cp s3://src-bucket/report.pdf s3://src-bucket/report.pdf --version-id 3HL4kqtJlcpXroDTDmJ
  $ s3blitz cp s3://src s3://dst --filter-metadata --filter 'js:({ContentType}) => ContentType === "image/png"'

Objects that fail are named on stderr as they happen and counted at the end; the exit
code is 1 when any failed. Archived (GLACIER) and vanished objects are reported, not failures.
`)
    .action(runAction(async ({ args: [source, target], opts, signal, stopSignal }) => {
      if (source === '-' || target === '-') return streamCopy(source, target, opts, signal);
      const libOpts = copyLibraryOptions(source, target, opts);
      if (opts.apiExample) return writeOut(apiExample('copy', libOpts));
      libOpts.signal = signal;
      libOpts.stopSignal = stopSignal;
      if (opts.debug) libOpts.onConcurrency = debugConcurrency;
      libOpts.log = (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); };
      libOpts.progress = new Progress({ quiet: opts.quiet });
      const fmt = formatOf(opts);
      const log = objectLog(opts, fmt === 'json');
      libOpts.onObject = copyProgressLines(fmt, { log });
      const r = await lib.copy(libOpts);
      return finishCopy(report.copy(r), r, fmt, opts, log);
    }, { graceful: true }));
}

function registerMove(program) {
  const cmd = program.command('mv').alias('move')
    .description('move objects: copy each one, prove the copy holds the same bytes, then delete its source')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder')
    .argument('[target]', 's3://bucket/prefix or a local folder');
  outputOptions(concurrencyOptions(writeOptions(targetOptions(metadataOptions(sourceOptions(connectionOptions(cmd)), { prefix: 'filter-' }))), { journal: false }))
    .option('--delete-concurrency <n>', help('deleteConcurrency'))
    .option('--require-conditional', 'refuse (exit 4, nothing deleted) where the server does not honour conditional deletes (a source is deleted only while its ETag is the listed one)')
    .option('--dryrun', 'list what would be moved; change nothing')
    .option('--dry-run', 'same as --dryrun')
    .option('--log <file>', LOG_HELP)
    .addHelpText('after', `
Examples:
  $ s3blitz mv s3://my-bucket/incoming/ s3://archive-bucket/2026/
  $ s3blitz mv s3://my-bucket/report.csv s3://my-bucket/old/report.csv
  $ s3blitz mv ./outbox s3://my-bucket/inbox/ -v
  $ s3blitz mv s3://my-bucket/exports/ ./exports --include '*.csv' --exclude '*' --dryrun

A source is deleted only once its copy is proven to hold the same bytes: the same ETag, the
same stored full-object checksum, a download that matched its checksum or MD5, or an upload
the server checked on receipt. It is deleted with the ETag it was listed with (If-Match), so
a source rewritten meanwhile stays. Sources that could not be moved are named and counted
(exit 1) and are still there. mv keeps no journal: run the same command again to move what
is left.
`)
    .action(runAction(async ({ args: [source, target], opts, signal, stopSignal }) => {
      const libOpts = copyLibraryOptions(source, target, opts);
      for (const k of ['deleteConcurrency', 'requireConditional']) if (opts[k] !== undefined) libOpts[k] = opts[k];
      if (opts.apiExample) return writeOut(apiExample('mv', libOpts));
      libOpts.signal = signal;
      libOpts.stopSignal = stopSignal;
      libOpts.log = (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); };
      libOpts.progress = new Progress({ quiet: opts.quiet, verb: 'moved' });
      const fmt = formatOf(opts);
      const log = objectLog(opts, fmt === 'json');
      libOpts.onObject = copyProgressLines(fmt, { log, move: true });
      const r = await lib.mv(libOpts);
      return finishCopy(report.copy(r), r, fmt, opts, log);
    }, { graceful: true }));
}

// cp - s3://b/k (stdin to an object) and cp s3://b/k - (an object to stdout).
async function streamCopy(source, target, opts, signal) {
  const { UsageError } = require('../errors');
  const { toStdout } = require('./object-commands');
  if (source === '-' && target === '-') throw new UsageError('cp - -: give an s3:// object on one side');
  if (target === '-') {
    if (!/^(s3|https?):\/\//i.test(source || '')) throw new UsageError(`cp to stdout (-) reads one S3 object (s3://bucket/key), not ${JSON.stringify(source || '')}`);
    // The object (or its version: --version-id, --as-of) as cat reads it.
    const o = libraryOptions(source, opts);
    if (opts.versionId !== undefined) o.versionId = opts.versionId;
    if (opts.apiExample) return writeOut(apiExample('cat', o, { stream: true }));
    return toStdout(await lib.cat({ ...o, signal }));
  }
  for (const [flag, given] of [['--version-id', opts.versionId !== undefined], ['--as-of', opts.asOf !== undefined], ['--all-versions', opts.allVersions]]) {
    if (given) throw new UsageError(`${flag} reads versions of an S3 source: stdin (-) has none`);
  }
  const o = copyLibraryOptions(undefined, target, opts);
  delete o.dryrun;
  if (opts.apiExample) return writeOut(apiExample('putStream', { ...o, stream: 'process.stdin' }));
  const r = await lib.putStream({ ...o, stream: process.stdin, signal, log: (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); } });
  if (r.skipped) writeErr(report.problemLine('skipped', target, 'exists (--no-overwrite): the stream was not written'));
  if (formatOf(opts) === 'json') await writeOut(JSON.stringify(r, null, 2) + '\n');
  else if (r.skipped) return 0;
  else if (!opts.quiet) await writeOut(`${report.format.tallyLine('uploaded', { objects: 1, bytes: r.bytes }, 9)}\n`);
  return 0;
}

// --debug: each change of a pool's or a prefix's concurrency, and of a prefix's paced rate.
function debugConcurrency(ev) {
  writeErr(`s3blitz: concurrency ${ev.name} ${ev.limit}${ev.rate !== undefined ? `, ${ev.rate} requests/s` : ''} (${ev.reason})\n`);
}

module.exports = { registerCopy, debugConcurrency, registerMove, copyLibraryOptions, writeOptions, targetOptions, concurrencyOptions, copyProgressLines, finishCopy, LOG_HELP };
