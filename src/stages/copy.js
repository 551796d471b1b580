'use strict';
// cp: every listed object to its target key, as fast as the endpoint allows, with a
// bounded queue between the lister and the copiers, and every object accounted for.
const { Listing } = require('../list/listing');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { createKeyMapper } = require('../transfer/key-map');
const { CollisionDetector } = require('../transfer/collisions');
const { classifyError } = require('../transfer/outcome');
const { copyOptions, sameConnection } = require('../transfer/copier');
const { UsageError } = require('../errors');
const { runSignal } = require('../signal');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');
const { resolvePaths, checkMapping } = require('./paths');
const { resolveLocation } = require('../stores/location');

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (!srcLoc.bucket || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options)) return;
  const changes = w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption;
  if (mapper.identity && !changes) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

// Source listing, target store, key mapper and the run for cp.
function openCopy(options, journal, paths) {
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  // A resumed run lists only what comes after the journal's watermark.
  const startAfter = journal && journal.resumeAfter !== null ? journal.resumeAfter : options.startAfter;
  // Copies go far slower than listing: pages listed ahead or held back for order only
  // cost memory here (the copier has its own queue of --max-queue-size objects).
  const listing = new Listing({ ...options, sourceLocation: paths.source, stats, signal, startAfter, unordered: false, reorderWindow: options.reorderWindow || 20000, maxQueuedPages: 4 });
  let dst, dstLoc;
  try {
    // options.targetStore: a store object of the caller's, as options.store for the source.
    ({ store: dst, location: dstLoc } = options.targetStore
      ? { store: options.targetStore, location: { bucket: options.targetStore.bucket, prefix: '', text: options.target || 'custom store' } }
      : openStore({ ...options, targetLocation: paths.target, stats, maxSockets: co.copyConcurrency + co.largeCopyConcurrency * co.partConcurrency }, 'target'));
    const mapper = createKeyMapper({
      sourcePrefix: paths.source.base ?? listing.range.prefix,
      targetPrefix: dstLoc.prefix,
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey, single: paths.single,
    });
    checkSelfCopy(listing.location, dstLoc, mapper, w, options);
    const run = new CopyRun({ options, journal, src: listing.store, dst, w, co, stats, signal, progress: listing.progress });
    return { stats, listing, dstLoc, mapper, run, close() { listing.close(); dst.destroy(); } };
  } catch (err) {
    listing.close();
    if (dst) dst.destroy();
    throw err;
  }
}

/**
 * Copies objects. Options are the CLI's in camelCase: source, target (or bucket / toBucket),
 * range and filter options, toPrefix / addPrefix / toKey, write options, concurrency options,
 * dryrun, plus onObject(outcome), onUpload(uploadId), signal, progress, log.
 */
async function copy(options = {}) {
  const paths = options.targetStore || options.store ? customPaths(options) : await resolvePaths(options, { single: true });
  const journal = RunJournal.open('cp', options);
  let c;
  try {
    c = openCopy(options, journal, paths);
    await checkMapping(paths.source, c.mapper, c.listing.store, options.signal);
  } catch (err) {
    if (c) c.close();
    if (journal) journal.abandon();
    throw err;
  }
  const { listing, mapper, run, stats } = c;
  const { copier } = run;
  const stop = run.stopSignal;
  const detector = mapper.injective ? null : new CollisionDetector();
  let collisions = 0;
  const feed = async () => {
    for await (const page of listing.pages()) {
      if (stop.aborted) return { interrupted: true };
      for (const item of page) {
        if (journal && journal.isDone(item.Key)) continue;
        if (stop.aborted) return { interrupted: true };
        let targetKey;
        try {
          targetKey = mapper.map(item.Key);
        } catch (err) {
          copier.record(item, null, classifyError(err), { keyed: true });
          continue;
        }
        if (detector && detector.add(targetKey)) {
          collisions++;
          copier.record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` }, { keyed: true });
          continue;
        }
        const token = journal && journal.track(item.Key);
        await copier.add(item, targetKey, token && ((outcome) => journal.finished(token, outcome, item, targetKey)));
      }
    }
    return { interrupted: false };
  };
  const r = await run.run({ feed, listed: () => listing.complete, close: () => c.close() });
  return {
    source: listing.location.text, target: c.dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete: r.complete,
    interrupted: r.interrupted, journal: r.journal,
    ...copier.result(), collisions, ok: copier.ok && !listing.noMatch, stats: stats.toJSON(),
    ...(listing.noMatch ? { noMatch: listing.noMatchText } : {}),
  };
}

// A caller's own stores: their paths are raw, as given.
function customPaths(options) {
  const raw = (p) => ({ prefix: p || '', base: p || '', raw: true });
  return { source: options.store ? raw(options.prefix) : folderLocation(options, 'source'), target: options.targetStore ? raw('') : folderLocation(options, 'target'), single: null };
}

function folderLocation(options, role) {
  return role === 'source'
    ? resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source')
    : resolveLocation({ location: options.target, bucket: options.toBucket }, 'target');
}

module.exports = { copy, openCopy, checkSelfCopy };
