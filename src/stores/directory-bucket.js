'use strict';
// Directory buckets (S3 Express One Zone, and One Zone-IA in Local Zones) are named
// "<base>--<zone id>--x-s3"; their listings come in no key order and take no StartAfter
// (list/directory-lister.js).

/** Whether a bucket is a directory bucket, by S3's naming rule. */
const isDirectoryBucket = (bucket) => typeof bucket === 'string' && /--[a-z0-9-]+--x-s3$/.test(bucket);

module.exports = { isDirectoryBucket };
