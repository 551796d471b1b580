'use strict';
// Directory buckets (S3 Express One Zone, and One Zone-IA in Local Zones) are named
// "<base>--<zone id>--x-s3"; their listings come in no key order and take no StartAfter
// (list/directory-lister.js).
const { UsageError } = require('../errors');
const { COMPUTED_RANGE } = require('../options');
const { parseLocation } = require('./location');

// A zonal endpoint of S3 Express: s3express-<zone id>.<region>.amazonaws.com (the bucket's
// name in front of it, or in the path).
const ZONAL = /(^|\.)s3express-[a-z0-9-]+\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/i;

/** Whether a bucket is a directory bucket: by S3's naming rule, or by the zonal endpoint it is reached at. */
function isDirectoryBucket(bucket, endpointUrl) {
  if (typeof bucket === 'string' && /--[a-z0-9-]+--x-s3$/.test(bucket)) return true;
  if (!endpointUrl) return false;
  try { return ZONAL.test(new URL(endpointUrl).hostname); } catch { return false; }
}

/** The zone id a directory bucket's name carries ("use1-az4" of "logs--use1-az4--x-s3"). */
const zoneOf = (bucket) => (/--([a-z0-9-]+)--x-s3$/.exec(bucket) || [])[1];

/** Its zonal endpoint at AWS: https://<bucket>.s3express-<zone id>.<region>.amazonaws.com. */
const zonalHost = (bucket, region) => `${bucket}.s3express-${zoneOf(bucket)}.${region}.amazonaws.com`;

/**
 * Refuses a key range the caller gave (--start-after, --stop-at) on a directory-bucket
 * source: such a bucket takes no StartAfter and lists in no key order, so the range could
 * only be kept by listing every key and dropping most (internal ranges, a shard's or a
 * resumed run's, are kept that way: they are what the plan or the journal computed).
 * options: parsed library options (source URL or bucket, endpointUrl).
 */
function refuseRangeOnDirectoryBucket(options) {
  const asked = options.startAfter !== undefined && options.startAfter !== null ? '--start-after'
    : options.stopAt !== undefined && options.stopAt !== null ? '--stop-at' : null;
  if (!asked || options[COMPUTED_RANGE]) return;
  // The source as every command reads it (an s3:// or https:// URL, else --bucket); parsing
  // it here throws the error the command itself would.
  const loc = typeof options.source === 'string' ? parseLocation(options.source) : null;
  const bucket = loc ? loc.bucket : options.source === undefined ? options.bucket : undefined;
  if (typeof bucket !== 'string' || !isDirectoryBucket(bucket, options.endpointUrl)) return;
  throw new UsageError(`${bucket} is a directory bucket, which lists in no key order and takes no StartAfter: ${asked} would list every key to keep a few; give a prefix (a directory) instead`);
}

module.exports = { isDirectoryBucket, zoneOf, zonalHost, refuseRangeOnDirectoryBucket };
