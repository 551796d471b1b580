'use strict';
// The read-only stages over one listing: ls, summarize, each, map.
const { ObjectListing: Listing } = require('./object-listing');
const { positiveInt, DEFAULTS } = require('../options');
const { Summary, groupingOf } = require('./summary');
const { userFunction } = require('../js-function');
const { UsageError, FatalError } = require('../errors');

async function withListing(options, body) {
  const listing = new Listing(options);
  try {
    const value = await body(listing);
    const out = { ...value, complete: listing.complete, stats: listing.stats.toJSON() };
    if (listing.heads) out.metadataScan = listing.scanReport();
    return out;
  } finally {
    listing.close();
  }
}

// Items of a source as one array: only for callers who asked for an array.
function ls(options) {
  return withListing(options, async (listing) => {
    const items = [];
    for await (const page of listing.pages()) for (const it of page) items.push(it);
    return { items };
  });
}

function summarize(options = {}) {
  const depth = positiveInt(options.depth ?? DEFAULTS.depth, '--depth');
  const top = positiveInt(options.top ?? DEFAULTS.top, '--top');
  groupingOf(options.by); // a bad --by is a usage error before anything is listed
  // Order does not matter to a summary: pages are taken as they arrive, nothing held back.
  return withListing({ unordered: true, ...options }, async (listing) => {
    const summary = new Summary({ summarizeFolders: Boolean(options.summarizeFolders), depth, top, by: options.by, versions: Boolean(options.allVersions) });
    for await (const chunk of listing.chunks()) summary.addChunk(chunk);
    return { summary: summary.toJSON(), source: listing.location.text };
  });
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
      if (map) for (const item of page) await callUser(map, [item], '--map', item.Key);
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
