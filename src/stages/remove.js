'use strict';
// rm: deletes one object, a folder, a wildcard's matches or a filtered listing. The whole
// selection is listed first (spooled to disk, so a listing that fails a check deletes
// nothing and --max-delete can count it), then deleted with DeleteObjects, 1000 keys per
// request, many requests at once, each key with its listed ETag: a key rewritten since is
// left and reported as changed (conditional-deletes.js). Every key that could not be deleted
// is named with S3's reason. Journaled like cp: an interrupted rm resumes after the last batch
// it finished.
const { Listing } = require('../list/listing');
const { openListing } = require('./source-listing');
const { RequestStats } = require('../stats');
const { Spool } = require('../util/spool');
const { Tally } = require('../transfer/copier');
const { Watermark } = require('../journal/watermark');
const { Journal } = require('../journal/journal');
const { option } = require('../options');
const { UsageError, SafetyError } = require('../errors');
const { runSignal } = require('../signal');
const { describeS3Error } = require('../stores/s3-errors');
const { resolvePaths } = require('./paths');
const { removeVersions } = require('./delete-versions');
const { deleteCondition, deleteBatch } = require('./conditional-deletes');
const { objectUrl } = require('../stores/object-url');

const BATCH = 1000; // DeleteObjects takes at most 1000 keys
const MAX_NAMED = 10000;

/**
 * Options: source (or bucket / prefix), range and filter options, dryrun, maxDelete, force,
 * deleteConcurrency, maxFailures, requireConditional, journal, resume, resumeMaxAge, signal,
 * stopSignal, onDelete({key, size, dryrun}, {key, size} or {key, size, status: 'changed' |
 * 'vanished' | 'failed', error}), progress, onProgress, log. With
 * allVersions, every version and delete marker instead (delete-versions.js' removeVersions).
 */
async function rm(options = {}) {
  if (options.allVersions) return removeVersions(options); // every version and delete marker, for good
  const maxDelete = option(options, 'maxDelete');
  const concurrency = option(options, 'deleteConcurrency');
  const maxFailures = option(options, 'maxFailures');
  const paths = options.store ? { source: { prefix: options.prefix || '', base: options.prefix || '', raw: true } } : await resolvePaths(options, { single: true, target: false });
  if (paths.source.type === 'local') throw new UsageError('rm deletes objects in S3: give an s3:// path (local files are not deleted)');
  const journal = options.dryrun || options.journal === false ? null
    : Journal.open('rm', options, { maxAgeMs: option(options, 'resumeMaxAge'), log: options.log });
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const stop = options.stopSignal;
  const earlier = (journal && journal.totals) || {};
  const deleted = new Tally(), failed = new Tally(), changed = new Tally(), vanished = new Tally(), planned = new Tally();
  const tallies = { deleted, failed, changed, vanished };
  for (const [k, t] of Object.entries(tallies)) if (earlier[k]) { t.objects = earlier[k].objects; t.bytes = earlier[k].bytes; }
  const totals = () => Object.fromEntries(Object.entries(tallies).map(([k, t]) => [k, t.toJSON()]));
  const failures = journal ? journal.failures.slice(0, MAX_NAMED) : [];
  const reasons = new Map();
  let listing, source = null, spool = null, capped = null, interrupted = false, complete = false;
  const wm = new Watermark();
  if (journal) {
    journal.beforeFlush = () => journal.mark(wm.upTo ?? journal.upTo, wm.upTo ?? journal.upTo, [], totals());
    if (journal.resumed && options.log) {
      options.log(`resuming from ${journal.file}: ${deleted.objects.toLocaleString('en-US')} objects already deleted${journal.upTo !== null ? `, continuing after ${JSON.stringify(journal.upTo)}` : ''} (--no-resume starts afresh)`);
    }
  }
  try {
    source = openListing(Listing, { ...options, sourceLocation: paths.source, stats, signal, startAfter: journal && journal.upTo !== null ? journal.upTo : options.startAfter });
    listing = source.listing;
    listing.progress.verb = 'deleted';
    // 1. The whole selection, to disk.
    spool = new Spool();
    let bytes = 0;
    for await (const page of listing.pages()) {
      for (const it of page) { spool.push({ key: it.Key, size: it.Size, etag: it.ETag }); bytes += it.Size || 0; }
      if (stop && stop.aborted) break;
    }
    if (stop && stop.aborted) interrupted = true;
    else if (!listing.complete) throw new SafetyError('the listing is incomplete (--max-list-requests): nothing was deleted');
    const count = spool.count;
    // 2. The safety limit counts what an earlier run of the same command deleted too.
    if (!interrupted && maxDelete !== undefined && count + deleted.objects > maxDelete && !options.force) {
      throw new SafetyError(`${(count + deleted.objects).toLocaleString('en-US')} object${count + deleted.objects === 1 ? '' : 's'} would be deleted${deleted.objects ? ` (${deleted.objects.toLocaleString('en-US')} of them already, by the interrupted run)` : ''}, more than --max-delete ${maxDelete}: nothing was deleted (raise --max-delete)`);
    }
    if (!interrupted && options.dryrun) {
      for await (const r of spool.read()) {
        planned.add(r.size);
        if (options.onDelete) options.onDelete({ key: r.key, size: r.size, url: objectUrl(source.store, r.key), dryrun: true });
      }
    } else if (!interrupted && count) {
      // 3. Batches of 1000 keys, `concurrency` requests at once, each key with its listed ETag
      // where the server is found to honour it (one probe, just before the first delete).
      const { store } = source;
      const { etags } = await deleteCondition(store, { prefix: listing.range.prefix, signal, requireConditional: options.requireConditional, log: options.log });
      if (store.directoryBucket && options.log) options.log(`${store.bucket} is a directory bucket: a directory left empty by these deletes disappears with its last object`);
      let inflight = 0, wake = null, fatal = null;
      const runBatch = async (batch, token) => {
        let outcomes;
        try {
          outcomes = await deleteBatch(store, batch, { etags, signal });
        } catch (err) {
          if (signal.aborted) return;
          const reason = describeS3Error(err, { bucket: store.bucket, op: 'DeleteObjects' }).message;
          outcomes = batch.map((r) => ({ r, status: 'failed', reason }));
        }
        for (const { r, status, reason } of outcomes) {
          tallies[status].add(r.size);
          listing.progress.done(status, r.size);
          if (status === 'deleted') {
            if (options.onDelete) options.onDelete({ key: r.key, size: r.size, url: objectUrl(store, r.key) });
            continue;
          }
          const f = { key: r.key, status, reason };
          if (failures.length < MAX_NAMED) failures.push(f);
          if (journal) journal.failed(f);
          if (options.onDelete) options.onDelete({ key: r.key, size: r.size, url: objectUrl(store, r.key), status, error: reason });
          if (status !== 'failed') continue;
          const e = reasons.get(reason) || { reason, count: 0 };
          e.count++;
          reasons.set(reason, e);
          if (!capped && deleted.objects === 0 && e.count >= maxFailures) {
            capped = { reason, count: e.count };
            if (options.log) options.log(`stopping: the first ${e.count} objects all failed the same way and none was deleted (--max-failures ${maxFailures}): ${reason}`);
          }
        }
        wm.finish(token);
      };
      const launch = (batch) => {
        const token = wm.add(batch[batch.length - 1].key);
        inflight++;
        runBatch(batch, token).catch((err) => { fatal = fatal || err; }).finally(() => { inflight--; if (wake) { wake(); wake = null; } });
      };
      let batch = [];
      for await (const r of spool.read()) {
        batch.push(r);
        if (batch.length < BATCH) continue;
        while (inflight >= concurrency && !fatal) await new Promise((res) => { wake = res; });
        if (fatal) break;
        if ((stop && stop.aborted) || signal.aborted) { interrupted = true; break; }
        if (capped) break;
        launch(batch);
        batch = [];
      }
      if (batch.length && !fatal && !interrupted && !capped && !(stop && stop.aborted) && !signal.aborted) launch(batch);
      else if (batch.length && !fatal && !capped) interrupted = true;
      while (inflight > 0) await new Promise((res) => { wake = res; });
      if (fatal) throw fatal;
      if (signal.aborted) interrupted = true;
    }
    complete = !interrupted && !capped;
  } catch (err) {
    if (journal) { if (interrupted || signal.aborted) journal.close(); else journal.remove(); }
    throw describeS3Error(err);
  } finally {
    if (spool) spool.remove();
    if (source) source.close();
  }
  let kept = null;
  if (journal) {
    if (complete || capped) journal.remove();
    else { journal.close(); kept = journal.file; }
  }
  const result = {
    source: listing.location.text, dryrun: Boolean(options.dryrun),
    ...totals(),
    failures, failureReasons: [...reasons.values()].sort((a, b) => b.count - a.count),
    complete, interrupted, journal: kept,
    ok: failed.objects === 0 && changed.objects === 0 && !listing.noMatch,
    stats: stats.toJSON(),
  };
  if (options.dryrun) result.planned = planned.toJSON();
  if (capped) result.stoppedByFailures = capped;
  if (listing.noMatch) result.noMatch = listing.noMatchText;
  return result;
}

module.exports = { rm };
