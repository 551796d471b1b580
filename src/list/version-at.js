'use strict';
// The version of one key at a moment (cat --as-of, cp s3://b/key --as-of T): ListObjectVersions
// with the key as prefix, its own entries only (the key sorts before every longer key that
// starts with it, so they come first), in the server's order, newest first: the first one
// stamped at or before the moment decides, as versions.js decides for a whole listing.
// Memory stays at one page whatever the key's number of versions.
const { FatalError } = require('../errors');
const T = require('../plan/tuning').values;

/**
 * @param store a store with listVersionsPage (s3-store.js)
 * @param key the key, exactly
 * @param t the moment, in ms
 * @returns {item} (the version then, as a listed item with VersionId), {deleteMarker} (a
 *   delete marker was newest then), or {none: true, later} (no version at or before t;
 *   later: how many versions the key has after it)
 */
async function findVersionAt(store, key, t, { signal, stats } = {}) {
  let keyMarker, versionIdMarker, later = 0, empty = 0;
  for (;;) {
    if (stats) stats.listRequests++;
    const page = await store.listVersionsPage({ prefix: key, keyMarker, versionIdMarker, signal });
    for (const v of page.entries) {
      if (v.Key !== key) return { none: true, later };
      const m = v.LastModified ? +v.LastModified : NaN;
      if (!(m <= t)) { later++; continue; }
      if (v.DeleteMarker) return { deleteMarker: v };
      return { item: { Key: v.Key, Size: v.Size, LastModified: v.LastModified, ETag: v.ETag, StorageClass: v.StorageClass || 'STANDARD', VersionId: v.VersionId, IsLatest: v.IsLatest } };
    }
    if (!page.truncated) return { none: true, later };
    const last = page.entries[page.entries.length - 1];
    if (!last) {
      if (++empty > T.VERSION_EMPTY_PAGES) throw new FatalError(`the store keeps answering ListObjectVersions of ${JSON.stringify(key)} with empty pages it says are truncated`);
      continue;
    }
    if (last.VersionId === versionIdMarker && last.Key === keyMarker) throw new FatalError(`the store answered ListObjectVersions after version ${JSON.stringify(last.VersionId)} of ${JSON.stringify(key)} with that version again`);
    keyMarker = last.Key;
    versionIdMarker = last.VersionId;
  }
}

// Why a key has no object at a moment, for a one-line error.
function noObjectAt(found, iso) {
  if (found.deleteMarker) return `no such object at ${iso} (a delete marker was its newest version then)`;
  if (found.later) return `no such object at ${iso} (its ${found.later === 1 ? 'one version is' : `${found.later} versions are`} later)`;
  return `no such object at ${iso}`;
}

module.exports = { findVersionAt, noObjectAt };
