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

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (!srcLoc.bucket || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options)) return;
  const changes = w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption;
  if (mapper.identity && !changes) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

// Source listing, target store, key mapper and the run for cp.
function openCopy(options, journal) {
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  // A resumed run lists only what comes after the journal's watermark.
  const startAfter = journal && journal.resumeAfter !== null ? journal.resumeAfter : options.startAfter;
  // Copies go far slower than listing: pages listed ahead or held back for order only
  // cost memory here (the copier has its own queue of --max-queue-size objects).
  const listing = new Listing({ ...options, stats, signal, startAfter, unordered: false, reorderWindow: options.reorderWindow || 20000, maxQueuedPages: 4 });
  let dst, dstLoc;
  try {
    // options.targetStore: a store object of the caller's, as options.store for the source.
    ({ store: dst, location: dstLoc } = options.targetStore
      ? { store: options.targetStore, location: { bucket: options.targetStore.bucket, prefix: '', text: options.target || 'custom store' } }
      : openStore({ ...options, stats, maxSockets: co.copyConcurrency + co.largeCopyConcurrency * co.partConcurrency }, 'target'));
    const mapper = createKeyMapper({
      sourcePrefix: listing.range.prefix,
      targetPrefix: dstLoc.prefix,
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey,
    });
    checkSelfCopy(listing.location, dstLoc, mapper, w, options);
    const run = new CopyRun({ options, journal, src: listing.store, dst, w, co, stats, signal });
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
  const journal = RunJournal.open('cp', options);
  let c;
  try {
    c = openCopy(options, journal);
  } catch (err) {
    if (journal) journal.keep();
    throw err;
  }
  const { listing, mapper, run, stats } = c;
  const { copier } = run;
  const stop = options.stopSignal;
  const detector = mapper.injective ? null : new CollisionDetector();
  let collisions = 0;
  listing.progress.extra = () => `${copier.tallies.copied.objects.toLocaleString('en-US')} copied${copier.tallies.failed.objects ? `, ${copier.tallies.failed.objects} failed` : ''}`;
  const feed = async () => {
    for await (const page of listing.pages()) {
      if (stop && stop.aborted) return { interrupted: true };
      for (const item of page) {
        if (journal && journal.isDone(item.Key)) continue;
        if (stop && stop.aborted) return { interrupted: true };
        let targetKey;
        try {
          targetKey = mapper.map(item.Key);
        } catch (err) {
          copier.record(item, null, classifyError(err));
          continue;
        }
        if (detector && detector.add(targetKey)) {
          collisions++;
          copier.record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` });
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
    ...copier.result(), collisions, ok: copier.ok, stats: stats.toJSON(),
  };
}

module.exports = { copy, openCopy, checkSelfCopy };
