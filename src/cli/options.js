'use strict';
// Options shared by commands, added in groups so every command spells them the same.
// Defaults live in src/options.js (the help shows them from there): commander gets none,
// so an option the user did not give is not passed to the library at all.
const { help } = require('../options');

function connectionOptions(cmd) {
  return cmd
    .option('--endpoint-url <url>', 'S3 endpoint (default: $AWS_ENDPOINT_URL_S3, $AWS_ENDPOINT_URL, else AWS)')
    .option('--region <region>', 'AWS region (default: $AWS_REGION, the profile\'s region, else us-east-1)')
    .option('--profile <name>', 'shared config / credentials profile (default: $AWS_PROFILE)')
    .option('--path-style', 'path-style addressing (default for --endpoint-url)')
    .option('--no-path-style', 'virtual-hosted-style addressing even with --endpoint-url')
    .option('--request-payer <who>', 'requester: accept charges for a requester-pays bucket');
}

function sourceOptions(cmd) {
  return cmd
    .option('--bucket <name>', 'source bucket (instead of s3://bucket/...)')
    .option('--prefix <prefix>', 'only keys that start with prefix (raw: no "/" implied)')
    .option('--start-after <key>', 'only keys after key (exclusive)')
    .option('--stop-at <key>', 'only keys up to key (inclusive)')
    .option('--filter <js>', 'js:({Key, Size, LastModified, ETag, StorageClass}) => boolean (versions add VersionId, IsLatest, DeleteMarker; --metadata adds ContentType, Metadata, ...; --tags adds Tags)')
    .option('--pattern <text>', 'only keys containing text, or matching js:/regexp/flags')
    .option('--list-concurrency <n>', help('listConcurrency'))
    .option('--max-list-requests <n>', 'stop after n list requests (the result is marked incomplete)')
    .option('--sequential', 'list with one plain ListObjectsV2 walk, no parallel ranges')
    .option('--split-hints <file>', 'start the listing cut where these keys are (JSON of an earlier run, keys one per line, or an S3 Inventory CSV)')
    .option('--no-split-hints', 'do not start from where the last listing of this bucket and prefix found its keys');
}

function outputOptions(cmd, { json = true } = {}) {
  if (json) cmd.option('--json', 'machine-readable JSON output');
  return cmd
    .option('-q, --quiet', 'no progress line, no notices')
    .option('-v, --verbose', 'request statistics on stderr at the end')
    .option('--debug', 'stack traces and request details on errors')
    .option('--api-example', 'print the equivalent library call instead of running');
}

// Versions of the source: every one (--all-versions), or the source at a moment (--as-of).
function versionOptions(cmd, { all = true } = {}) {
  if (all) cmd.option('--all-versions', 'every version and delete marker (ListObjectVersions), in S3 order: key, then newest first');
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

// CLI option values to library options (camelCase, numbers checked by the library).
function libraryOptions(source, opts) {
  const o = {};
  if (source !== undefined) o.source = source;
  const copy = ['bucket', 'prefix', 'startAfter', 'stopAt', 'filter', 'pattern', 'listConcurrency', 'maxListRequests',
    'endpointUrl', 'region', 'profile', 'requestPayer', 'sequential', 'allVersions', 'asOf', 'headConcurrency'];
  for (const k of copy) if (opts[k] !== undefined) o[k] = opts[k];
  // --metadata / --tags (ls, summarize, each, map); --filter-metadata / --filter-tags (cp, sync, compare).
  if (opts.metadata === true || opts.filterMetadata) o.withMetadata = true;
  if (opts.tags || opts.filterTags) o.withTags = true;
  if (opts.pathStyle !== undefined && process.argv.some((a) => a === '--path-style' || a === '--no-path-style')) o.forcePathStyle = opts.pathStyle;
  if (typeof opts.splitHints === 'string' || opts.splitHints === false) o.splitHints = opts.splitHints;
  return o;
}

module.exports = { connectionOptions, sourceOptions, outputOptions, libraryOptions, versionOptions, metadataOptions };
