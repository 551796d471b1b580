'use strict';
// Directory buckets (S3 Express One Zone, and One Zone-IA in Local Zones) are named
// "<base>--<zone id>--x-s3"; their listings come in no key order and take no StartAfter
// (list/directory-lister.js).

/** Whether a bucket is a directory bucket, by S3's naming rule. */
const isDirectoryBucket = (bucket) => typeof bucket === 'string' && /--[a-z0-9-]+--x-s3$/.test(bucket);

/** The zone id a directory bucket's name carries ("use1-az4" of "logs--use1-az4--x-s3"). */
const zoneOf = (bucket) => (/--([a-z0-9-]+)--x-s3$/.exec(bucket) || [])[1];

/** Its zonal endpoint at AWS: https://<bucket>.s3express-<zone id>.<region>.amazonaws.com. */
const zonalHost = (bucket, region) => `${bucket}.s3express-${zoneOf(bucket)}.${region}.amazonaws.com`;

module.exports = { isDirectoryBucket, zoneOf, zonalHost };
