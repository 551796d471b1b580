'use strict';
// A copy's source listed as several disjoint key ranges at once (lanes), each in key order
// with its own journal watermark. One ordered listing hands the copier one folder after
// another; where S3 limits requests per prefix, copying a folder at a time gets one
// prefix's rate. Lanes start together, so every top-level folder is copied at once.
//
// The cut comes from one folder listing (Delimiter "/") of the source prefix, descending
// through levels that hold a single folder and nothing else (at most LANES_MAX_DEPTH): at the
// first level with two or more folders, they are shared out in order among up to maxLanes
// lanes. A lane ends at the folder prefix where the next lane's first folder begins (the
// ranges are (after, stop], so the object named like that folder prefix, such as "b/",
// ends the lane before it). A level of more than one page is not cut (its folders are then
// many and small, and one listing moves through them quickly).
const { compareKeys } = require('../keys/order');
const T = require('./tuning').values;

/**
 * @param store the source store (listPage with a delimiter)
 * @param range {prefix, after, stop} of the listing
 * @param o {maxLanes, signal, stats (its folder listings are counted there)}
 * @returns [{after, stop}] in key order, two or more, covering the range; or null (one lane)
 */
async function planLanes(store, range, { maxLanes = T.LANES_MAX, signal, stats } = {}) {
  // A directory bucket is listed directory by directory already (list/directory-lister.js).
  if (!store.delimiters || store.directoryBucket || maxLanes < 2 || range.empty) return null;
  let prefix = range.prefix;
  for (let depth = 0; depth < T.LANES_MAX_DEPTH; depth++) {
    const page = await store.listPage({ prefix, delimiter: '/', maxKeys: 1000, signal });
    if (stats) { stats.listRequests++; stats.folderListings++; stats.pages++; }
    if (page.truncated) return null;
    // A store that lists folders out of S3's order (s3proxy's UTF-16 order) is not cut here:
    // its one listing's own checks find out how to read it.
    const entries = [...(page.prefixes || []), ...page.items.map((it) => it.Key)];
    const inOrder = (list) => list.every((k, i) => i === 0 || compareKeys(list[i - 1], k) < 0);
    if (!inOrder(page.prefixes || []) || !inOrder(page.items.map((it) => it.Key)) || entries.some((k) => !k.startsWith(prefix))) return null;
    // Folders strictly inside the range can start a lane.
    const folders = (page.prefixes || []).filter((f) => (!range.after || compareKeys(f, range.after) > 0) && (range.stop === null || compareKeys(f, range.stop) < 0));
    if ((page.prefixes || []).length === 1 && page.items.length === 0) { prefix = page.prefixes[0]; continue; }
    if (folders.length < 2) return null;
    const n = Math.min(maxLanes, folders.length);
    const bounds = [];
    for (let i = 1; i < n; i++) bounds.push(folders[Math.floor((i * folders.length) / n)]);
    return lanesFromBounds(range, bounds);
  }
  return null;
}

// Lanes (after, stop] between the range's ends and the given boundaries (in key order).
function lanesFromBounds(range, bounds) {
  const out = [];
  let after = range.after || '';
  for (const b of bounds) { out.push({ after, stop: b }); after = b; }
  out.push({ after, stop: range.stop });
  return out;
}

module.exports = { planLanes, lanesFromBounds };
