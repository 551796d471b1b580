'use strict';
// Multipart uploads started and never completed or aborted: their parts are stored, and
// billed, without showing in any listing of objects. ListMultipartUploads under the
// listing's prefix (1000 a request) counts them and finds the oldest; the parts' bytes
// take one ListParts per upload, so they are summed for the first PARTS_FOR uploads only.
const pLimit = require('p-limit');
const { compareKeys } = require('../keys/order');
const { oldest: oldestOf } = require('./top-objects');

const PARTS_FOR = 100;
const PARTS_AT_ONCE = 8;
const EXAMPLES = 10;

function inRange(key, range) {
  if (range.after && compareKeys(key, range.after) <= 0) return false;
  return range.stop === null || range.stop === undefined || compareKeys(key, range.stop) <= 0;
}

async function uploadBytes(store, u, signal) {
  let bytes = 0, parts = 0, marker;
  for (;;) {
    let page;
    try {
      page = await store.listParts({ key: u.Key, uploadId: u.UploadId, partNumberMarker: marker, signal });
    } catch (err) {
      // Completed or aborted since it was listed: it holds nothing now.
      if (err && (err.name === 'NoSuchUpload' || err.Code === 'NoSuchUpload')) return { bytes: 0, parts: 0 };
      throw err;
    }
    for (const p of page.parts) { bytes += p.Size || 0; parts++; }
    if (!page.truncated || page.partNumberMarker === undefined || page.partNumberMarker === marker) return { bytes, parts };
    marker = page.partNumberMarker;
  }
}

/**
 * The uploads in progress in a range ({prefix, after, stop}) of a store that can list them;
 * null for one that cannot (a local folder). A store that refuses (no permission, not
 * implemented) gives {error}, not a failed summary.
 */
async function incompleteUploads(store, range, { signal, partsFor = PARTS_FOR } = {}) {
  if (typeof store.listUploads !== 'function') return null;
  const limit = pLimit(PARTS_AT_ONCE);
  const oldest = oldestOf(EXAMPLES);
  let count = 0, partsBytes = 0, parts = 0, partsKnownFor = 0;
  const sizing = [];
  try {
    let keyMarker, uploadIdMarker;
    for (;;) {
      const page = await store.listUploads({ prefix: range.prefix, keyMarker, uploadIdMarker, signal });
      for (const u of page.uploads) {
        if (!inRange(u.Key, range)) continue;
        count++;
        const t = u.Initiated ? +new Date(u.Initiated) : NaN;
        if (t === t && oldest.wants(t)) oldest.add({ v: t, key: u.Key, uploadId: u.UploadId, storageClass: u.StorageClass });
        if (typeof store.listParts === 'function' && sizing.length < partsFor) {
          sizing.push(limit(() => uploadBytes(store, u, signal)).then((r) => { partsBytes += r.bytes; parts += r.parts; partsKnownFor++; }));
        }
      }
      if (!page.truncated || (page.keyMarker === keyMarker && page.uploadIdMarker === uploadIdMarker)) break;
      keyMarker = page.keyMarker;
      uploadIdMarker = page.uploadIdMarker;
    }
    await Promise.all(sizing);
  } catch (err) {
    await Promise.allSettled(sizing);
    if (signal && signal.aborted) throw err;
    return { error: `${err.name || 'Error'}: ${err.message}` };
  }
  const examples = oldest.sorted().map((e) => ({ key: e.key, initiated: new Date(e.v).toISOString(), uploadId: e.uploadId, storageClass: e.storageClass }));
  return {
    uploads: count,
    oldestInitiated: examples.length ? examples[0].initiated : null,
    parts,
    partsBytes,
    partsKnownFor, // uploads whose parts were summed (all of them when uploads <= partsFor)
    examples,
  };
}

module.exports = { incompleteUploads, PARTS_FOR };
