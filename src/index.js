'use strict';
// The library: everything the CLI does, as functions over an options object whose
// names match the CLI's options in camelCase.
// A listing whose items can carry their metadata and tags (withMetadata, withTags).
const { ObjectListing: ListingImpl, estimateScan } = require('./stages/object-listing');
const { ParallelLister } = require('./list/parallel-lister');
const { ls, summarize, each, map } = require('./stages/read-only');
const { copy } = require('./stages/copy');
const { compare } = require('./stages/compare');
const { sync } = require('./stages/sync');
const { removeVersions, deleteVersions } = require('./stages/delete-versions');
const { listBuckets: listBucketsRaw } = require('./stores/s3-store');
const { compareKeys } = require('./keys/order');
const errors = require('./errors');
const { checkOptions } = require('./options');

// A listing whose options are checked against the table, as every function's are.
class Listing extends ListingImpl {
  constructor(options = {}) { super(checkOptions(options, 'Listing')); }
}

// fn, with its options checked first: a misspelled option rejects with a UsageError naming it.
function checked(name, fn) {
  return async (options = {}, ...rest) => fn(checkOptions(options, name), ...rest);
}

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

// items and pages check their options through Listing, when first iterated.
module.exports = {
  items, pages,
  ls: checked('ls', ls),
  summarize: checked('summarize', summarize),
  each: checked('each', each),
  map: checked('map', map),
  copy: checked('copy', copy),
  cp: checked('cp', copy),
  compare: checked('compare', compare),
  sync: checked('sync', sync),
  listBuckets: checked('listBuckets', listBuckets),
  estimateMetadataScan: checked('estimateMetadataScan', estimateScan),
  removeVersions: checked('removeVersions', removeVersions),
  deleteVersions,
  Listing, ParallelLister, compareKeys,
  report: require('./report'),
  ...errors,
};
