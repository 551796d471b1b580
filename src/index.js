'use strict';
// The library: everything the CLI does, as functions over an options object whose
// names match the CLI's options in camelCase.
const { Listing } = require('./list/listing');
const { ParallelLister } = require('./list/parallel-lister');
const { ls, summarize, each, map } = require('./stages/read-only');
const { copy } = require('./stages/copy');
const { compare } = require('./stages/compare');
const { sync } = require('./stages/sync');
const { listBuckets: listBucketsRaw } = require('./stores/s3-store');
const { compareKeys } = require('./keys/order');
const errors = require('./errors');

// Async iterator of items (or, with items: false, of pages) over a source and range.
async function* items(options = {}) {
  const listing = new Listing(options);
  try { yield* listing.items(); } finally { listing.close(); }
}

async function* pages(options = {}) {
  const listing = new Listing(options);
  try { yield* listing.pages(); } finally { listing.close(); }
}

function listBuckets(options = {}) {
  return listBucketsRaw(options);
}

module.exports = {
  items, pages, ls, summarize, each, map, copy, cp: copy, compare, sync, listBuckets,
  Listing, ParallelLister, compareKeys,
  ...errors,
};
