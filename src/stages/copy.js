'use strict';
// cp: every listed object to its target key, as fast as the endpoint allows, with a
// bounded queue between the lister and the copiers, and every object accounted for.
const { ObjectListing: Listing } = require('./object-listing');
const { VersionReplay } = require('./version-replay');
const { compareKeys } = require('../keys/order');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { createKeyMapper } = require('../transfer/key-map');
const { CollisionDetector } = require('../transfer/collisions');
const { classifyError } = require('../transfer/outcome');
const { copyOptions, sameConnection, Tally } = require('../transfer/copier');
const { UsageError, FatalError } = require('../errors');
const { httpStatus, errorCode } = require('../stores/s3-errors');
const { runSignal } = require('../signal');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');

// Whether the source is read by version (a version id in every copy source).
function versioned(options) {
  return Boolean(options.allVersions || options.versionId || (options.asOf !== undefined && options.asOf !== null));
}

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
// A copy of an older version onto its own key is a restore, not that.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (!srcLoc.bucket || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options) || versioned(options)) return;
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
    if (options.allVersions && dst.type !== 's3') throw new UsageError('--all-versions copies to an S3 target only (a folder keeps no history)');
    if (options.versionId !== undefined && (options.allVersions || (options.asOf !== undefined && options.asOf !== null))) {
      throw new UsageError('--version-id names one version: it cannot be combined with --all-versions or --as-of');
    }
    // Copies read the source by version id where there is one.
    const src = listing.store.base || listing.store;
    const run = new CopyRun({ options, journal, src, dst, w, co, stats, signal });
    const inPlace = Boolean(listing.location.bucket && listing.location.bucket === dstLoc.bucket && sameConnection(options) && mapper.identity);
    return { stats, listing, dstLoc, mapper, run, src, dst, inPlace, close() { listing.close(); dst.destroy(); } };
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
  const alreadyCurrent = new Tally();
  listing.progress.extra = () => `${copier.tallies.copied.objects.toLocaleString('en-US')} copied${copier.tallies.failed.objects ? `, ${copier.tallies.failed.objects} failed` : ''}`;
  if (options.allVersions) {
    const rf = replayFeed(c, options, journal);
    return finishCopy(c, options, await run.run(rf), { deleteMarkers: rf.result() });
  }
  if (options.versionId !== undefined) return finishCopy(c, options, await run.run(oneVersionFeed(c, options)));
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
        // Restoring a bucket in place (--as-of): a key whose version then is the current one is left as it is.
        if (c.inPlace && item.IsLatest) { alreadyCurrent.add(item.Size); continue; }
        const token = journal && journal.track(item.Key);
        await copier.add(item, targetKey, token && ((outcome) => journal.finished(token, outcome, item, targetKey)));
      }
    }
    return { interrupted: false };
  };
  const r = await run.run({ feed, listed: () => listing.complete, close: () => c.close() });
  return finishCopy(c, options, r, c.inPlace && options.asOf !== undefined ? { collisions, alreadyCurrent: alreadyCurrent.toJSON() } : { collisions });
}

function finishCopy(c, options, r, extra = {}) {
  const { listing, run, stats } = c;
  const { copier } = run;
  const out = {
    source: listing.location.text, target: c.dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete: r.complete,
    interrupted: r.interrupted, journal: r.journal,
    ...copier.result(), collisions: 0, ...extra, ok: copier.ok, stats: stats.toJSON(),
  };
  if (listing.heads) out.metadataScan = listing.scanReport();
  return out;
}

// cp --all-versions: every key's versions in turn (the listing is in key order, each key's
// versions together, newest first), replayed oldest first (version-replay.js).
function replayFeed(c, options, journal) {
  const { listing, mapper, run } = c;
  const { copier } = run;
  const stop = options.stopSignal;
  const replay = new VersionReplay({ copier, dst: c.dst, journal, dryrun: Boolean(options.dryrun), signal: run.signal, onObject: options.onObject });
  const detector = mapper.injective ? null : new CollisionDetector();
  let markers = null;
  const feed = async () => {
    let group = [], prevKey = listing.range.after || '';
    const flush = async () => {
      if (!group.length) return;
      const versions = group;
      group = [];
      let targetKey;
      try {
        targetKey = mapper.map(versions[0].Key);
      } catch (err) {
        for (const v of versions) copier.record(v, null, classifyError(err));
        return;
      }
      // Two histories onto one key would interleave: the later key's versions fail.
      if (detector && detector.add(targetKey)) {
        for (const v of versions) copier.record(v, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` });
        return;
      }
      await replay.addKey(versions, targetKey, prevKey);
      prevKey = versions[0].Key;
    };
    for await (const page of listing.pages()) {
      for (const item of page) {
        if (stop && stop.aborted) { await replay.settle(); return { interrupted: true }; }
        if (group.length && item.Key !== group[0].Key) {
          if (compareKeys(item.Key, group[0].Key) < 0) throw new FatalError(`the version listing went back from ${JSON.stringify(group[0].Key)} to ${JSON.stringify(item.Key)}`);
          await flush();
        }
        group.push(item);
      }
    }
    await flush();
    await replay.settle();
    markers = replay.markers.toJSON();
    return { interrupted: false };
  };
  return {
    feed, listed: () => listing.complete, close: () => c.close(),
    result: () => markers || replay.markers.toJSON(),
  };
}

// cp --version-id: the one version of the one key the source names, found by a HeadObject.
function oneVersionFeed(c, options) {
  const { listing, mapper, run } = c;
  const key = listing.range.prefix;
  const feed = async () => {
    if (!key) throw new UsageError('--version-id needs a source that names one key (s3://bucket/key)');
    let head;
    try {
      run.stats.count('HEAD');
      head = await c.src.headObject({ Key: key, VersionId: options.versionId }, run.signal);
    } catch (err) {
      const code = errorCode(err), status = httpStatus(err);
      if (status === 404 || code === 'NoSuchVersion' || code === 'NoSuchKey' || code === 'NotFound') throw new FatalError(`version ${JSON.stringify(options.versionId)} of ${JSON.stringify(key)} was not found in s3://${c.src.bucket}`);
      if (status === 405 || code === 'MethodNotAllowed') throw new FatalError(`version ${JSON.stringify(options.versionId)} of ${JSON.stringify(key)} is a delete marker: there is nothing to copy`);
      if (status === 400) throw new FatalError(`${JSON.stringify(options.versionId)} is not a version id of ${JSON.stringify(key)} (the store answered 400)`);
      throw err;
    }
    const item = { Key: key, Size: head.ContentLength, ETag: head.ETag, LastModified: head.LastModified, StorageClass: head.StorageClass || 'STANDARD', VersionId: options.versionId };
    // s3://b/dir/file to s3://b2/restored/ keeps the file's name, as cp does for one object.
    let targetKey = mapper.map(key);
    if (targetKey === '' || (targetKey.endsWith('/') && !key.endsWith('/'))) targetKey += key.slice(key.lastIndexOf('/') + 1);
    await run.copier.add(item, targetKey);
    return { interrupted: false };
  };
  return { feed, listed: () => true, close: () => c.close() };
}

module.exports = { copy, openCopy, checkSelfCopy };
