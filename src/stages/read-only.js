'use strict';
// The read-only stages over one listing: ls, summarize, each, map.
const { lsLevel } = require('./one-level');
const { ObjectListing: Listing } = require('./object-listing');
const { option, DEFAULTS } = require('../options');
const { Summary, FOLDERS_DEPTH, groupingOf } = require('./summary');
const { loadPrices } = require('./storage-cost');
const { incompleteUploads } = require('./incomplete-uploads');
const { userFunction } = require('../js-function');
const { UsageError, FatalError } = require('../errors');
const { openListing } = require('./source-listing');

async function withListing(options, body) {
  const { listing, store, close } = openListing(Listing, options);
  try {
    const value = await body(listing, store);
    const out = { ...value, complete: listing.complete, stats: listing.stats.toJSON(), ...(listing.noMatch ? { noMatch: listing.noMatchText } : {}) };
    if (listing.heads) out.metadataScan = listing.scanReport();
    return out;
  } finally {
    close();
  }
}

// Items of a source as one array: only for callers who asked for an array.
function ls(options) {
  if (options.delimiter !== undefined) return lsLevel(options); // one level, aws-style
  return withListing(options, async (listing) => {
    const items = [];
    for await (const page of listing.pages()) for (const it of page) items.push(it);
    return { items };
  });
}

function summarize(options = {}) {
  const depth = option(options, 'depth');
  const top = option(options, 'top');
  const largest = option(options, 'largest');
  const prices = loadPrices(options.prices);
  groupingOf(options.by); // a bad --by is a usage error before anything is listed
  const startedAt = new Date();
  // Order does not matter to a summary: pages are taken as they arrive, nothing held back.
  return withListing({ unordered: true, ...options }, async (listing, store) => {
    const summary = new Summary({
      summarizeFolders: Boolean(options.summarizeFolders), depth: options.depth === undefined ? FOLDERS_DEPTH : depth, treeDepth: depth,
      top, largest, prices, prefix: listing.range.prefix, by: options.by, versions: Boolean(options.allVersions),
    });
    // Incomplete uploads are listed beside the objects, once the store is open.
    const uploads = (options.incompleteUploads ?? DEFAULTS.incompleteUploads)
      ? store.open().then(() => incompleteUploads(store, listing.range, { signal: listing.signal }))
      : Promise.resolve(null);
    uploads.catch(() => {}); // awaited below; the listing's own error comes first
    for await (const chunk of listing.chunks()) summary.addChunk(chunk);
    await confirmTwins(summary.trouble, listing, store);
    const json = summary.toJSON();
    json.incompleteUploads = await uploads;
    const out = { summary: json, source: listing.location.text, startedAt: startedAt.toISOString(), elapsedMs: Date.now() - startedAt.getTime() };
    if (options.mergeState) out.mergeState = summary.mergeState(); // a shard's, for merge
    return out;
  });
}

// Keys whose Unicode-NFC twin may have been listed before them: asked of the store, a
// HEAD each (at most a hundred). Buckets only: a file system may find a file under either
// form of its name (macOS does), and could not hold both anyway.
async function confirmTwins(trouble, listing, store) {
  // Versions are not objects a HEAD finds.
  if (store.type !== 's3' || typeof store.stat !== 'function' || listing.allVersions || listing.asOf !== null) return;
  for (const { key, nfc } of trouble.unconfirmed()) {
    let found = null;
    try { found = await store.stat(nfc, listing.signal); } catch { found = null; }
    if (found) trouble.confirmTwin(key, nfc);
  }
}

// A run cancelled while a user function ran stops before the next item.
function stopIfAborted(listing) {
  if (listing.signal.aborted) throw listing.signal.reason || new Error('aborted');
}

async function callUser(fn, args, name, key) {
  try {
    return await fn(...args);
  } catch (err) {
    throw new FatalError(`${name} threw${key !== undefined ? ` for ${JSON.stringify(key)}` : ''}: ${err && err.message}`);
  }
}

function each(options = {}) {
  const map = userFunction(options.map, '--map');
  const mapList = userFunction(options.mapList, '--map-list');
  if (!map && !mapList) throw new UsageError('each needs --map "js:(item) => ..." or --map-list "js:(items) => ..."');
  return withListing(options, async (listing) => {
    let count = 0;
    for await (const page of listing.pages()) {
      if (mapList) await callUser(mapList, [page], '--map-list');
      if (map) for (const item of page) { await callUser(map, [item], '--map', item.Key); stopIfAborted(listing); }
      count += page.length;
    }
    return { count };
  });
}

// map: each item to a value, folded with reduce (in no guaranteed order), then finally.
// Without reduce, onValue receives each value (the CLI prints them), or values are
// collected into an array for library callers.
function map(options = {}) {
  const mapFn = userFunction(options.map, '--map');
  const reduce = userFunction(options.reduce, '--reduce');
  const fin = userFunction(options.finally, '--finally');
  if (!mapFn) throw new UsageError('map needs --map "js:(item) => value"');
  // Values are folded in no guaranteed order, so pages are taken as they arrive.
  return withListing({ unordered: true, ...options }, async (listing) => {
    let acc, has = false, count = 0;
    const values = reduce || options.onValue ? null : [];
    for await (const page of listing.pages()) {
      for (const item of page) {
        const v = await callUser(mapFn, [item], '--map', item.Key);
        stopIfAborted(listing);
        count++;
        if (reduce) {
          if (!has) { acc = v; has = true; } else acc = await callUser(reduce, [acc, v], '--reduce', item.Key);
        } else if (options.onValue) options.onValue(v);
        else values.push(v);
      }
    }
    let result = reduce ? (has ? acc : options.default) : values;
    if (fin && (has || !reduce || options.default !== undefined)) result = await callUser(fin, [result], '--finally');
    return { result, count };
  });
}

module.exports = { ls, summarize, each, map, withListing };
