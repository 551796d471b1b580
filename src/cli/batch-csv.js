'use strict';
// ls --format s3-batch-csv: the listing as S3 Batch Operations manifest rows (see
// stages/batch-manifest.js; the manifest command writes the same rows to a file or object).
const lib = require('../index');
const { UsageError } = require('../errors');

const BATCH_CSV = 's3-batch-csv';

// ls's --format: text, json or s3-batch-csv; true for the manifest's CSV.
function batchCsvFormat(opts) {
  if (opts.format === undefined || opts.format === 'text' || opts.format === 'json') return false;
  if (opts.format !== BATCH_CSV) throw new UsageError(`ls --format must be text, json or ${BATCH_CSV}, not ${JSON.stringify(opts.format)}`);
  if (opts.json) throw new UsageError(`--json and --format ${BATCH_CSV} contradict each other`);
  if (opts.long) throw new UsageError(`--long and --format ${BATCH_CSV} contradict each other`);
  return true;
}

// The manifest rows of a listing's chunks; a folder has no bucket to name.
function batchRows(listing, { versions = false } = {}) {
  if (listing.location.type !== 's3') throw new UsageError(`--format ${BATCH_CSV} needs an s3:// source, not ${JSON.stringify(listing.location.text)}`);
  const bucket = listing.location.bucket;
  return (chunk) => lib.batchManifest.manifestRows(bucket, chunk, { versions });
}

module.exports = { batchCsvFormat, batchRows, BATCH_CSV };
