'use strict';
// mv within one directory bucket: RenameObject moves an object atomically and in
// milliseconds whatever its size, keeping its metadata, checksums, ETag and dates. Nothing
// is copied, so there is no copy to prove and no source left to delete. Only while the source
// is as listed (x-amz-rename-source-if-match: its ETag), and with --no-overwrite only where
// the new key is free (If-None-Match: *).
const crypto = require('crypto');
const { changesObject } = require('./write-options');

// Whether a move from src to dst can be a rename: the same directory bucket on one
// connection, and the object left as it is (no write option that changes it).
function renames(src, dst, w, sameConnection) {
  return src.type === 's3' && dst.type === 's3' && Boolean(src.directoryBucket) && src.bucket === dst.bucket &&
    Boolean(sameConnection) && typeof dst.renameObject === 'function' && !changesObject(w);
}

async function renameObject(job) {
  const { dst, item, key, w, signal, stats } = job;
  stats.count('PUT');
  await dst.renameObject({
    Key: key,
    From: item.Key,
    SourceIfMatch: item.ETag || undefined,
    IfNoneMatch: w && w.noOverwrite ? '*' : undefined,
    // The same token on the SDK's retries: a rename whose answer was lost answers its retry.
    ClientToken: crypto.randomUUID(),
  }, signal);
  return { status: 'copied', bytes: item.Size, renamed: true };
}

module.exports = { renames, renameObject };
