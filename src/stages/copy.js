'use strict';
// cp: every listed object to its target key, as fast as the endpoint allows, with a
// bounded queue between the lister and the copiers, and every object accounted for.
const { ObjectListing: Listing } = require('./object-listing');
const { openListing } = require('./source-listing');
const { VersionReplay } = require('./version-replay');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions, changesObject } = require('../transfer/write-options');
const { createKeyMapper } = require('../transfer/key-map');
const { CollisionDetector } = require('../transfer/collisions');
const { classifyError } = require('../transfer/outcome');
const { copyOptions, sameConnection, transferSockets, Tally } = require('../transfer/copier');
const { UsageError, FatalError } = require('../errors');
const { httpStatus, errorCode } = require('../stores/s3-errors');
const { runSignal } = require('../signal');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');
const { resolvePaths, checkMapping } = require('./paths');
const { resolveLocation } = require('../stores/location');
const { planLanes, lanesFromBounds } = require('../plan/lanes');
const T = require('../plan/tuning').values;
const { compareKeys } = require('../keys/order');
const { option } = require('../options');

// Whether the source is read by version (a version id in every copy source).
function versioned(options) {
  return Boolean(options.allVersions || options.versionId || (options.asOf !== undefined && options.asOf !== null));
}

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
// A copy of an older version onto its own key is a restore, not that.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (!srcLoc.bucket || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options) || versioned(options)) return;
  if (mapper.identity && !changesObject(w)) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

// Source listing, target store, key mapper and the run for cp.
function openCopy(options, journal, paths) {
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  // A resumed run lists only what comes after the journal's watermark (a run in lanes: each
  // lane after its own, see laneListings).
  const startAfter = journal && !journal.lanes && journal.resumeAfter !== null ? journal.resumeAfter : options.startAfter;
  // Copies go far slower than listing: pages listed ahead or held back for order only
  // cost memory here (the copier has its own queue of --max-queue-size objects).
  // The source's store is the copy's: the listing (and its lanes) list through it, copies
  // read through it (by version id where there is one).
  const source = openListing(Listing, { ...options, sourceLocation: paths.source, stats, signal, startAfter, unordered: false, reorderWindow: options.reorderWindow || T.COPY_REORDER_WINDOW, maxQueuedPages: T.COPY_QUEUED_PAGES, sockets: transferSockets(co) });
  const { listing, store: src } = source;
  let dst, dstLoc;
  try {
    // options.targetStore: a store object of the caller's, as options.store for the source.
    ({ store: dst, location: dstLoc } = options.targetStore
      ? { store: options.targetStore, location: { bucket: options.targetStore.bucket, prefix: '', text: options.target || 'custom store' } }
      : openStore({ ...options, targetLocation: paths.target, stats, maxSockets: transferSockets(co) }, 'target'));
    const mapper = createKeyMapper({
      sourcePrefix: paths.source.base ?? listing.range.prefix,
      targetPrefix: dstLoc.prefix,
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey, single: paths.single,
    });
    checkSelfCopy(listing.location, dstLoc, mapper, w, options);
    if (options.allVersions && dst.type !== 's3') throw new UsageError('--all-versions copies to an S3 target only (a folder keeps no history)');
    if (options.versionId !== undefined && (options.allVersions || (options.asOf !== undefined && options.asOf !== null))) {
      throw new UsageError('--version-id names one version: it cannot be combined with --all-versions or --as-of');
    }
    if (w.noOverwrite && options.allVersions) throw new UsageError('--no-overwrite cannot be combined with --all-versions (each version is written over the one before it)');
    const run = new CopyRun({ options, journal, src, dst, w, co, stats, signal, progress: listing.progress, prefixBase: (dstLoc.prefix || '').length, targetPrefix: dstLoc.prefix || '' });
    const inPlace = Boolean(listing.location.bucket && listing.location.bucket === dstLoc.bucket && sameConnection(options) && mapper.identity);
    return { stats, signal, listing, dstLoc, mapper, run, src, dst, inPlace, close() { source.close(); dst.destroy(); } };
  } catch (err) {
    source.close();
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
  // mv keeps no journal: its rerun finds only the sources not yet moved (stages/move.js).
  const journal = options.move ? null : RunJournal.open('cp', options);
  let c;
  try {
    c = openCopy(options, journal, paths);
    await checkMapping(paths.source, c.mapper, c.src, options.signal);
    if (options.move) c.ahead = moveOverlap(c, options);
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
  const alreadyCurrent = new Tally();
  if (options.allVersions) {
    const rf = replayFeed(c, options, journal);
    return finishCopy(c, options, await run.run(rf), { deleteMarkers: rf.result() });
  }
  if (options.versionId !== undefined) return finishCopy(c, options, await run.run(oneVersionFeed(c, options)));
  // One listing's objects to the copier, journaled in its lane.
  const feedFrom = async (from, lane, stopped) => {
    for await (const page of from.pages()) {
      if (stop.aborted || stopped()) return { interrupted: true };
      for (const item of page) {
        if (journal && journal.isDone(item.Key)) continue;
        if (stop.aborted || stopped()) return { interrupted: true };
        let targetKey;
        try {
          targetKey = mapper.map(item.Key);
        } catch (err) {
          copier.record(item, null, classifyError(err), { keyed: true });
          continue;
        }
        if (c.ahead && c.ahead(item.Key, targetKey)) {
          copier.record(item, targetKey, { status: 'failed', reason: `its target key ${JSON.stringify(targetKey)} lies ahead in the listing of the source: it would be moved again (not moved)` }, { keyed: true });
          continue;
        }
        if (detector && detector.add(targetKey)) {
          collisions++;
          copier.record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` }, { keyed: true });
          continue;
        }
        // Restoring a bucket in place (--as-of): a key whose version then is the current one is left as it is.
        if (c.inPlace && item.IsLatest) { alreadyCurrent.add(item.Size); continue; }
        const token = journal && journal.track(item.Key, item.Key, lane);
        await copier.add(item, targetKey, token && ((outcome) => journal.finished(token, outcome, item, targetKey)), lane);
      }
    }
    return { interrupted: false };
  };
  let lanes = null;
  const feed = async () => {
    lanes = await laneListings(c, options, journal);
    if (!lanes) return feedFrom(listing, 0, () => false);
    copier.useLanes(lanes.length);
    // Every lane at once; the first to fail stops the others.
    let failed = false;
    const results = await Promise.all(lanes.map((l, i) => (l ? feedFrom(l, i, () => failed) : Promise.resolve({ interrupted: false }))
      .catch((err) => { failed = true; throw err; })));
    return { interrupted: results.some((x) => x.interrupted) };
  };
  const listed = () => (lanes ? lanes.every((l) => !l || l.complete) : listing.complete);
  const close = () => { if (lanes) for (const l of lanes) if (l) l.close(); c.close(); };
  const finish = options.move ? options.move.done : undefined;
  const r = await run.run({ feed, listed, close, finish });
  // A wildcard or a name that matched nothing, in one listing or all the lanes.
  const noMatch = lanes ? listing.location.glob || listing.location.fromName ? r.complete && lanes.every((l) => !l || l.listed === 0) : false : listing.noMatch;
  const extra = c.inPlace && options.asOf !== undefined ? { collisions, alreadyCurrent: alreadyCurrent.toJSON() } : { collisions };
  return finishCopy(c, options, r, { ...extra, ...(noMatch ? { noMatch: listing.noMatchText } : {}) }, noMatch, lanes);
}

function finishCopy(c, options, r, extra = {}, noMatch = false, lanes = null) {
  const { listing, run, stats } = c;
  const { copier } = run;
  const out = {
    source: listing.location.text, target: c.dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete: r.complete,
    interrupted: r.interrupted, journal: r.journal,
    ...copier.result(), collisions: 0, ...extra, ok: copier.ok && !noMatch, stats: stats.toJSON(),
  };
  const scanned = [listing, ...(lanes || [])].filter((l) => l && l.heads);
  if (scanned.length) out.metadataScan = scanned[0].scanReport();
  return out;
}

// mv within one store: a copy written where the listing has yet to go would be listed and
// moved again. A target prefix inside the source's is refused; otherwise the function
// returned says whether one target key lies ahead (inside the listed prefix, after its
// source key: the listing, in key order and in one lane, has passed every key before it).
// null: the target is another store.
function moveOverlap(c, options) {
  const { listing, dstLoc, mapper, src, dst } = c;
  if (src.type === 'local' && dst.type === 'local') throw new UsageError('mv moves objects to or from S3: for two local folders, use your shell\'s mv');
  const same = src.type === 's3' ? listing.location.bucket === dstLoc.bucket && sameConnection(options) : false;
  // One named object is listed alone: its copy is never listed.
  if (!same || listing.location.single !== undefined) return null;
  const prefix = listing.range.prefix || '';
  if (mapper.mapPrefix && !options.toKey) {
    const mapped = mapper.mapPrefix(listing.location.base ?? prefix);
    if (mapped.startsWith(prefix)) throw new UsageError(`the target s3://${dstLoc.bucket}/${mapped} lies inside the source s3://${listing.location.bucket}/${prefix}: moved objects would be listed and moved again (move them elsewhere, or list a narrower source)`);
  }
  return (key, targetKey) => targetKey.startsWith(prefix) && compareKeys(targetKey, key) > 0;
}

// Lanes of the source (lanes.js), each a listing of its own range that starts after its
// lane's watermark: those of the run this one resumes, else a new cut where the source is an
// S3 bucket listed in parallel. null: the copy reads one listing.
async function laneListings(c, options, journal) {
  const { listing, src } = c;
  let lanes;
  if (journal && journal.resumed) {
    if (!journal.lanes) return null;
    lanes = lanesFromBounds(listing.range, journal.lanes);
  } else {
    if (src.type !== 's3' || options.sequential || options.toKey || listing.location.single !== undefined || versioned(options) || listing.heads || c.ahead) return null;
    await src.open();
    lanes = await planLanes(src, listing.range, { maxLanes: T.LANES_MAX, signal: c.signal, stats: c.stats });
    if (!lanes) return null;
  }
  if (journal) journal.useLanes(lanes.slice(1).map((l) => l.after));
  const concurrency = Math.max(T.LANE_MIN_CONCURRENCY, Math.ceil(option(options, 'listConcurrency') / lanes.length));
  return lanes.map((lane, i) => {
    const resume = journal && journal.resumeAfterLane(i);
    const after = resume && compareKeys(resume, lane.after) > 0 ? resume : lane.after;
    if (lane.stop !== null && after && compareKeys(after, lane.stop) >= 0) return null; // finished before
    // The same source, selection and filters as the whole listing, on its store.
    return new Listing({
      ...options, store: src, storeLocation: listing.location, source: listing.location.text,
      startAfter: after || undefined, stopAt: lane.stop === null ? undefined : lane.stop, listConcurrency: concurrency,
      stats: c.stats, signal: c.signal, progress: listing.progress, unordered: false,
      reorderWindow: Math.ceil((options.reorderWindow || T.COPY_REORDER_WINDOW) / lanes.length), maxQueuedPages: T.COPY_QUEUED_PAGES,
    });
  });
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
  // The key the source names (a name with no object now is read as a folder: its name).
  const loc = listing.location;
  const key = loc.single !== undefined ? loc.single : loc.fromName ? loc.prefix.slice(0, -1) : listing.range.prefix;
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
