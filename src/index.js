'use strict';
// The library: everything the CLI does, as functions over an options object whose
// names match the CLI's options in camelCase.
// A listing whose items can carry their metadata and tags (withMetadata, withTags).
const { ObjectListing: ListingImpl, estimateScan } = require('./stages/object-listing');
const { ParallelLister } = require('./list/parallel-lister');
const { ls, summarize, each, map } = require('./stages/read-only');
const { copy } = require('./stages/copy');
const { mv } = require('./stages/move');
const { presign } = require('./stages/presign');
const { compare } = require('./stages/compare');
const { sync } = require('./stages/sync');
const { rm } = require('./stages/remove');
const { cat, head, putStream, mb, rb } = require('./stages/objects');
const { removeVersions, deleteVersions } = require('./stages/delete-versions');
const { listBuckets: listBucketsRaw } = require('./stores/s3-store');
const { compareKeys } = require('./keys/order');
const errors = require('./errors');
const { parseOptions } = require('./options');
const { refuseRangeOnDirectoryBucket } = require('./stores/directory-bucket');
const { plan, sharded, writeResult } = require('./stages/shards');
const { merge, mergeResults, readResults } = require('./stages/merge');
const { manifest } = require('./stages/manifest');
const batchManifest = require('./stages/batch-manifest');

// A listing whose options are checked and parsed against the table, as every function's are.
class Listing extends ListingImpl {
  constructor(options = {}) {
    const o = parseOptions(options, 'Listing');
    refuseRangeOnDirectoryBucket(o);
    super(o);
  }
}

// fn, with its options checked and parsed first (once, here: the stages read typed values): a
// misspelled option or a bad value rejects with a UsageError naming it; commands that read a
// source also take a shard of it (stages/shards.js).
function checked(name, fn, { shards = false } = {}) {
  const run = shards ? sharded(name, fn) : fn;
  return async (options = {}, ...rest) => {
    const o = parseOptions(options, name);
    refuseRangeOnDirectoryBucket(o);
    return run(o, ...rest);
  };
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

// items and pages check their options through Listing, when first iterated. Every export is
// a plain name in the object below, so that Node's ESM import sees each one by name
// (`import { copy, FatalError } from 's3blitz'`).
const { EXIT, S3BlitzError, UsageError, FatalError, SafetyError, ObjectError } = errors;
const report = require('./report');
const lsChecked = checked('ls', ls, { shards: true });
const summarizeChecked = checked('summarize', summarize, { shards: true });
const eachChecked = checked('each', each, { shards: true });
const mapChecked = checked('map', map, { shards: true });
const copyChecked = checked('copy', copy, { shards: true });
// Not in shards: one shard's targets may lie in another's range, moved there once more.
const mvChecked = checked('mv', mv);
const presignChecked = checked('presign', presign);
const compareChecked = checked('compare', compare, { shards: true });
const syncChecked = checked('sync', sync, { shards: true });
const planChecked = checked('plan', plan);
const listBucketsChecked = checked('listBuckets', listBuckets);
const rmChecked = checked('rm', rm, { shards: true });
const catChecked = checked('cat', cat);
const headChecked = checked('head', head);
const putStreamChecked = checked('putStream', putStream);
const mbChecked = checked('mb', mb);
const rbChecked = checked('rb', rb);
const estimateChecked = checked('estimateMetadataScan', estimateScan);
const removeVersionsChecked = checked('removeVersions', removeVersions, { shards: true });
const manifestChecked = checked('manifest', manifest);

module.exports = {
  items, pages,
  ls: lsChecked,
  summarize: summarizeChecked,
  each: eachChecked,
  map: mapChecked,
  copy: copyChecked,
  cp: copyChecked,
  mv: mvChecked,
  move: mvChecked,
  presign: presignChecked,
  compare: compareChecked,
  sync: syncChecked,
  listBuckets: listBucketsChecked,
  rm: rmChecked,
  delete: rmChecked,
  cat: catChecked,
  head: headChecked,
  putStream: putStreamChecked,
  mb: mbChecked,
  rb: rbChecked,
  plan: planChecked,
  manifest: manifestChecked,
  batchManifest,
  merge, mergeResults, readResults, writeResult,
  estimateMetadataScan: estimateChecked,
  removeVersions: removeVersionsChecked,
  deleteVersions,
  Listing, ParallelLister, compareKeys, report,
  EXIT, S3BlitzError, UsageError, FatalError, SafetyError, ObjectError,
};
