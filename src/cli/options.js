'use strict';
// Options shared by commands, added in groups so every command spells them the same.
// Defaults live in src/options.js (the help shows them from there): commander gets none,
// so an option the user did not give is not passed to the library at all.
const { Option } = require('commander');
const { help } = require('../options');

function connectionOptions(cmd) {
  return cmd
    .option('--endpoint-url <url>', 'S3 endpoint (default: $AWS_ENDPOINT_URL_S3, $AWS_ENDPOINT_URL, the profile\'s endpoint_url, else AWS)')
    .option('--region <region>', 'AWS region (default: $AWS_REGION, the profile\'s region, else us-east-1)')
    .option('--profile <name>', 'shared config / credentials profile (default: $AWS_PROFILE)')
    .option('--path-style', 'path-style addressing (default for --endpoint-url)')
    .option('--no-path-style', 'virtual-hosted-style addressing even with --endpoint-url')
    .option('--request-payer <who>', 'requester: accept charges for a requester-pays bucket')
    .option('--no-sign-request', 'anonymous requests to the source (a public bucket): no credentials are looked up')
    .option('--request-threads <n>', help('requestThreads'));
}

function sourceOptions(cmd) {
  // --include and --exclude go into one list, in the order given: the last rule that
  // matches a key decides (aws-cli's rule).
  const rules = [];
  const rule = (kind) => (glob) => { rules.push({ [kind]: glob }); return rules; };
  return cmd
    .option('--bucket <name>', 'source bucket (instead of s3://bucket/...)')
    .option('--prefix <prefix>', 'only keys that start with prefix (raw: no "/" implied)')
    .option('--start-after <key>', 'only keys after key (exclusive)')
    .option('--stop-at <key>', 'only keys up to key (inclusive)')
    .option('--filter <js>', 'js:({Key, Size, LastModified, ETag, StorageClass}) => boolean (versions add VersionId, IsLatest, DeleteMarker; --metadata adds ContentType, Metadata, ...; --tags adds Tags)')
    .option('--pattern <text>', 'only keys containing text, or matching js:/regexp/flags')
    .option('--include <glob>', 'keep keys (relative to the source folder) that match glob; repeatable, the last matching --include/--exclude decides', rule('include'))
    .option('--exclude <glob>', 'leave out keys (relative to the source folder) that match glob; repeatable', rule('exclude'))
    .option('--list-concurrency <n>', help('listConcurrency'))
    .option('--max-list-requests <n>', 'stop after n list requests (the result is marked incomplete)')
    .option('--sequential', 'list with one plain ListObjectsV2 walk, no parallel ranges')
    .option('--split-hints <file>', 'start the listing cut where these keys are (JSON of an earlier run, keys one per line, or an S3 Inventory CSV)')
    .option('--no-split-hints', 'do not start from where the last listing of this bucket and prefix found its keys')
    .option('--shard <i/n>', 'take shard i (0-based) of n: one key range of a plan (--plan, or --shards computes it); else the index is JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX or SLURM_ARRAY_TASK_ID as is (an array\'s indices are the shard indices, 0 to n-1)')
    .option('--shards <n>', 'the job is split into n shards (each process plans them itself; the same n gives the same ranges)')
    .option('--plan <file>', 'a plan of shards written by s3blitz plan')
    .option('--result <file>', 'also write the result as JSON there (a file, or s3://bucket/key; %i is the shard index), for s3blitz merge');
}

function outputOptions(cmd, { json = true } = {}) {
  if (json) cmd.option('--json', 'machine-readable JSON output');
  return cmd
    .option('-q, --quiet', 'no progress line, no notices')
    .option('-H, --human-readable', 'sizes as KiB, MiB, GiB (-h is help)')
    .option('-v, --verbose', 'request statistics on stderr at the end')
    .option('--debug', 'stack traces and request details on errors')
    .option('--api-example', 'print the equivalent library call instead of running');
}

// The report's format and where it goes (summarize, compare).
function reportOptions(cmd) {
  return cmd
    .option('--format <format>', 'text, json, markdown or html (default: from --output\'s extension, else text)')
    .option('-o, --output <file>', 'write the report to file instead of stdout');
}

// Versions of the source: every one (--all-versions), or the source at a moment (--as-of).
// --version-id (one version of one key) is cp's, cat's and head's own; the others know it only
// to refuse it in one line that says what to use instead (run.js).
function versionOptions(cmd, { all = true, oneVersion = false } = {}) {
  if (all) cmd.option('--all-versions', 'every version and delete marker (ListObjectVersions), in S3 order: key, then newest first');
  if (!oneVersion) cmd.addOption(new Option('--version-id <id>').hideHelp());
  return cmd.option('--as-of <time>', 'the source as it was then: each key\'s newest version at or before it, nothing where a delete marker was newest (ISO-8601 with a zone, or a date)');
}

// Metadata of every object (a HeadObject each). cp, sync and compare name them
// --filter-metadata and --filter-tags: their --metadata sets metadata on copies.
function metadataOptions(cmd, { prefix = '' } = {}) {
  const what = prefix ? 'for --filter: ' : '';
  return cmd
    .option(`--${prefix}metadata`, `${what}each object's Content-Type, Content-Encoding, Cache-Control, user metadata, encryption, checksum algorithm, object lock and restore status (one HeadObject each)`)
    .option(`--${prefix}tags`, `${what}each object's tags (GetObjectTagging, only for objects that have tags)`)
    .option('--head-concurrency <n>', help('headConcurrency'));
}

// aws-cli's rule (the last matching rule decides, and a key no rule matches is kept) makes
// a lone --include select everything; rclone and s5cmd users read it as "only these". Said
// once, on stderr, with the way to write "only these".
let warned = false;
function loneIncludeWarning(rules) {
  if (warned || rules.some((r) => r.exclude !== undefined)) return;
  warned = true;
  const globs = rules.map((r) => `--include '${r.include}'`).join(' ');
  process.stderr.write(`s3blitz: warning: --include alone selects every key (aws-cli's rule: a key no --exclude leaves out is kept); for only these keys, write --exclude '*' ${globs}\n`);
}

// CLI option values to library options (camelCase, numbers checked by the library).
function libraryOptions(source, opts) {
  const o = {};
  if (source !== undefined) o.source = source;
  const copy = ['bucket', 'prefix', 'startAfter', 'stopAt', 'filter', 'pattern', 'listConcurrency', 'maxListRequests',
    'endpointUrl', 'region', 'profile', 'requestPayer', 'requestThreads', 'sequential', 'allVersions', 'asOf', 'headConcurrency'];
  for (const k of copy) if (opts[k] !== undefined) o[k] = opts[k];
  // --metadata / --tags (ls, summarize, each, map); --filter-metadata / --filter-tags (cp, sync, compare).
  if (opts.metadata === true || opts.filterMetadata) o.withMetadata = true;
  if (opts.tags || opts.filterTags) o.withTags = true;
  if (opts.pathStyle !== undefined && process.argv.some((a) => a === '--path-style' || a === '--no-path-style')) o.forcePathStyle = opts.pathStyle;
  if (opts.signRequest === false) o.noSignRequest = true;
  const rules = opts.include || opts.exclude;
  if (rules && rules.length) {
    o.pathFilters = rules;
    if (!opts.quiet) loneIncludeWarning(rules);
  }
  if (typeof opts.splitHints === 'string' || opts.splitHints === false) o.splitHints = opts.splitHints;
  for (const k of ['shard', 'shards', 'plan', 'result']) if (opts[k] !== undefined) o[k] = opts[k];
  return o;
}

module.exports = { connectionOptions, sourceOptions, outputOptions, libraryOptions, reportOptions, versionOptions, metadataOptions };
