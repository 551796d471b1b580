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
const { Copier, copyOptions, sameConnection } = require('../transfer/copier');
const { UsageError } = require('../errors');
const { runSignal } = require('../signal');
const { describeS3Error } = require('../stores/s3-errors');
const { RunJournal } = require('../journal/run-journal');

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (!srcLoc.bucket || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options)) return;
  const changes = w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption;
  if (mapper.identity && !changes) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

// Source and target stores, key mapper and copier for cp.
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
      : openStore({ ...options, stats, maxSockets: co.copyConcurrency + co.largeConcurrency * co.partConcurrency }, 'target'));
    const mapper = createKeyMapper({
      sourcePrefix: listing.range.prefix,
      targetPrefix: dstLoc.prefix,
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey,
    });
    const copier = new Copier({
      src: listing.store, dst, w, co, sameConnection: sameConnection(options), dryrun: Boolean(options.dryrun),
      signal, stopSignal: options.stopSignal, stats, onObject: options.onObject, onConcurrency: options.onConcurrency, log: options.log,
      ...RunJournal.copierHooks(journal, dst.bucket, options),
    });
    if (journal) journal.attach(copier);
    return { stats, signal, w, listing, dst, dstLoc, mapper, copier, close() { listing.close(); dst.destroy(); } };
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
  let run;
  try {
    run = openCopy(options, journal);
  } catch (err) {
    if (journal) journal.keep();
    throw err;
  }
  const { listing, dst, dstLoc, mapper, copier, stats } = run;
  const log = options.log || (() => {});
  const stop = options.stopSignal;
  let collisions = 0;
  let interrupted = false;
  try {
    checkSelfCopy(listing.location, dstLoc, mapper, run.w, options);
    const detector = mapper.injective ? null : new CollisionDetector();
    await dst.open({ create: true });
    if (journal && journal.resumed) {
      log(journal.describe());
      await journal.cleanupUploads(dst, stats);
    }
    listing.progress.extra = () => `${copier.tallies.copied.objects.toLocaleString('en-US')} copied${copier.tallies.failed.objects ? `, ${copier.tallies.failed.objects} failed` : ''}`;
    try {
      for await (const page of listing.pages()) {
        if (stop && stop.aborted) { interrupted = true; break; }
        for (const item of page) {
          if (journal && journal.isDone(item.Key)) continue;
          if (stop && stop.aborted) { interrupted = true; break; }
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
        if (interrupted) break;
      }
    } finally {
      await copier.drain().catch(() => {});
    }
    await copier.drain();
    interrupted = interrupted || Boolean(stop && stop.aborted) || run.signal.aborted;
  } catch (err) {
    if (journal) journal.keep();
    throw describeS3Error(err, { bucket: dst.bucket });
  } finally {
    run.close();
  }
  const complete = listing.complete && !interrupted;
  if (journal) {
    if (complete) journal.complete(); else journal.keep();
  }
  return {
    source: listing.location.text, target: dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete,
    interrupted, journal: journal && !complete ? journal.file : null,
    ...copier.result(), collisions, ok: copier.ok, stats: stats.toJSON(),
  };
}

module.exports = { copy, openCopy, checkSelfCopy };
