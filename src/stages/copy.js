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
const { copyOptions, sameConnection, transferSockets } = require('../transfer/copier');
const { UsageError } = require('../errors');
const { runSignal } = require('../signal');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');
const { resolvePaths, checkMapping } = require('./paths');
const { resolveLocation } = require('../stores/location');
const { planLanes, lanesFromBounds } = require('./lanes');
const { compareKeys } = require('../keys/order');
const { DEFAULTS } = require('../options');

// Lanes a copy lists at once at most (stages/lanes.js).
const MAX_LANES = 16;

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
  // A resumed run lists only what comes after the journal's watermark (a run in lanes: each
  // lane after its own, see laneListings).
  const startAfter = journal && !journal.lanes && journal.resumeAfter !== null ? journal.resumeAfter : options.startAfter;
  // Copies go far slower than listing: pages listed ahead or held back for order only
  // cost memory here (the copier has its own queue of --max-queue-size objects).
  const listing = new Listing({ ...options, sourceLocation: paths.source, stats, signal, startAfter, unordered: false, reorderWindow: options.reorderWindow || 20000, maxQueuedPages: 4, sockets: transferSockets(co) });
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
    const run = new CopyRun({ options, journal, src: listing.store, dst, w, co, stats, signal, progress: listing.progress, prefixBase: (dstLoc.prefix || '').length });
    return { stats, signal, listing, dstLoc, mapper, run, close() { listing.close(); dst.destroy(); } };
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
        if (detector && detector.add(targetKey)) {
          collisions++;
          copier.record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` }, { keyed: true });
          continue;
        }
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
  const r = await run.run({ feed, listed, close });
  // A wildcard or a name that matched nothing, in one listing or all the lanes.
  const noMatch = lanes ? listing.location.glob || listing.location.fromName ? r.complete && lanes.every((l) => !l || l.listed === 0) : false : listing.noMatch;
  return {
    source: listing.location.text, target: c.dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete: r.complete,
    interrupted: r.interrupted, journal: r.journal,
    ...copier.result(), collisions, ok: copier.ok && !noMatch, stats: stats.toJSON(),
    ...(noMatch ? { noMatch: listing.noMatchText } : {}),
  };
}

// Lanes of the source (lanes.js), each a listing of its own range that starts after its
// lane's watermark: those of the run this one resumes, else a new cut where the source is an
// S3 bucket listed in parallel. null: the copy reads one listing.
async function laneListings(c, options, journal) {
  const { listing } = c;
  let lanes;
  if (journal && journal.resumed) {
    if (!journal.lanes) return null;
    lanes = lanesFromBounds(listing.range, journal.lanes);
  } else {
    if (listing.store.type !== 's3' || options.sequential || options.toKey || listing.location.single !== undefined) return null;
    await listing.store.open();
    lanes = await planLanes(listing.store, listing.range, { maxLanes: MAX_LANES, signal: c.signal, stats: c.stats });
    if (!lanes) return null;
  }
  if (journal) journal.useLanes(lanes.slice(1).map((l) => l.after));
  const concurrency = Math.max(4, Math.ceil((options.listConcurrency || DEFAULTS.listConcurrency) / lanes.length));
  return lanes.map((lane, i) => {
    const resume = journal && journal.resumeAfterLane(i);
    const after = resume && compareKeys(resume, lane.after) > 0 ? resume : lane.after;
    if (lane.stop !== null && after && compareKeys(after, lane.stop) >= 0) return null; // finished before
    // The same source, selection and filters as the whole listing, on its store.
    return new Listing({
      ...options, store: listing.store, keepStore: true, storeLocation: listing.location, source: listing.location.text,
      startAfter: after || undefined, stopAt: lane.stop === null ? undefined : lane.stop, listConcurrency: concurrency,
      stats: c.stats, signal: c.signal, progress: listing.progress, unordered: false,
      reorderWindow: Math.ceil((options.reorderWindow || 20000) / lanes.length), maxQueuedPages: 4,
    });
  });
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
