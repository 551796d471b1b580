'use strict';
// What a listing of versions hands out: every version (--all-versions), or the bucket as it
// was at one moment (--as-of): for each key the newest version at or before it, and nothing
// where that is a delete marker. "Newest" is the server's order (newest first), never a
// comparison of LastModified, which has one second of resolution on S3.
const { ItemChunk } = require('../stores/chunks');
const { UsageError } = require('../errors');

// A moment: an ISO-8601 date-time with a zone (Z or +hh:mm), a date alone (midnight UTC),
// a Date or milliseconds. A date-time without a zone would mean the machine's local time:
// refused, since a restore to the wrong hour looks like a right one.
function parseAsOf(value) {
  if (value === undefined || value === null || value === false) return null;
  if (value instanceof Date) {
    if (Number.isNaN(+value)) throw new UsageError('--as-of: not a valid date');
    return +value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UsageError('--as-of: not a valid time');
    return value;
  }
  const s = String(value).trim();
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(s);
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s);
  if (!dateOnly && !zoned) {
    throw new UsageError(`--as-of must be an ISO-8601 date-time with a time zone (2024-06-01T12:00:00Z, 2024-06-01T14:00:00+02:00) or a date (2024-06-01, midnight UTC), not ${JSON.stringify(s)}`);
  }
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new UsageError(`--as-of: ${JSON.stringify(s)} is not a valid date`);
  return t;
}

// The object a key was at time t, from its versions newest first; null when it did not
// exist then (no version yet, or a delete marker was the newest).
function versionAt(versions, t) {
  for (const v of versions) {
    const m = v.LastModified ? +v.LastModified : NaN;
    if (!(m <= t)) continue;
    if (v.DeleteMarker) return null;
    return { Key: v.Key, Size: v.Size, LastModified: v.LastModified, ETag: v.ETag, StorageClass: v.StorageClass, VersionId: v.VersionId, IsLatest: v.IsLatest };
  }
  return null;
}

// A chunk of keys with their versions (version-chunk.js) as the objects at time t.
function chunkAsOf(chunk, t) {
  const out = [];
  for (let i = 0; i < chunk.length; i++) {
    const it = versionAt(chunk.versionsOf(i), t);
    if (it) out.push(it);
  }
  return new ItemChunk(out);
}

module.exports = { parseAsOf, versionAt, chunkAsOf };
