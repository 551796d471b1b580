'use strict';
// Deleting versions: a stream of {Key, VersionId} (versions and delete markers) removed for
// good, 1000 per DeleteObjects request, several requests at once (fewer while the store
// throttles). The safety rules of every delete: the whole set is spooled to disk and counted
// before anything is deleted; over maxDelete, nothing is deleted and the run is refused
// (SafetyError, exit 4) unless force; a dry run deletes nothing and reports every version it
// would delete. Every version is accounted for: deleted, or failed with S3's reason.
const { Listing } = require('../list/listing');
const { Spool } = require('../util/spool');
const { AdaptiveLimit } = require('../transfer/adaptive-limit');
const { Tally } = require('../transfer/copier');
const { RequestStats } = require('../stats');
const { option, positiveInt } = require('../options');
const { SafetyError, UsageError } = require('../errors');
const { describeS3Error } = require('../stores/s3-errors');
const { runSignal } = require('../signal');
const { openListing } = require('./source-listing');

const BATCH = 1000;
const CONCURRENCY = 16;
const MAX_NAMED = 10000;

/**
 * store: with deleteVersions([{Key, VersionId}], signal) -> [{key, versionId, reason}].
 * versions: an async iterable of version items (or of pages of them).
 * o: {maxDelete, force, dryrun, concurrency, signal, onDelete({key, versionId, size, deleteMarker, dryrun}), onConcurrency}
 * Resolves to {deleted, deleteMarkers, failed (each {objects, bytes}), failures, planned (dry run)}.
 */
async function deleteVersions(store, versions, o = {}) {
  const maxDelete = option(o, 'maxDelete');
  const spool = new Spool();
  try {
    for await (const x of versions) {
      for (const v of Array.isArray(x) ? x : [x]) spool.push([v.Key, v.VersionId, v.Size || 0, v.DeleteMarker ? 1 : 0]);
    }
    spool.close();
    const count = spool.count;
    if (maxDelete !== undefined && count > maxDelete && !o.force) {
      throw new SafetyError(`${count} versions would be deleted, more than --max-delete ${maxDelete}: nothing was deleted (raise --max-delete)`);
    }
    const deleted = new Tally(), markers = new Tally(), failed = new Tally(), planned = new Tally();
    const failures = [];
    const reasons = new Map();
    const report = (r, extra) => { if (o.onDelete) o.onDelete({ key: r[0], versionId: r[1], size: r[2], deleteMarker: r[3] === 1, ...extra }); };
    if (o.dryrun) {
      for await (const r of spool.read()) { planned.add(r[2]); report(r, { dryrun: true }); }
      return { planned: planned.toJSON(), deleted: deleted.toJSON(), deleteMarkers: markers.toJSON(), failed: failed.toJSON(), failures, failureReasons: [], count };
    }
    const limit = new AdaptiveLimit(positiveInt(o.concurrency ?? CONCURRENCY, 'delete concurrency'), { name: 'delete', onChange: o.onConcurrency });
    if (store.onThrottle) store.onThrottle(() => limit.throttled());
    let pending = 0, fatal = null;
    const waiters = [];
    const settle = () => { for (const w of waiters.splice(0)) w(); };
    const send = (batch) => {
      pending++;
      limit.run(async () => {
        if (fatal) return;
        const errors = await store.deleteVersions(batch.map((r) => ({ Key: r[0], VersionId: r[1] })), o.signal);
        const bad = new Map(errors.map((e) => [`${e.key}\0${e.versionId}`, e]));
        for (const r of batch) {
          const e = bad.get(`${r[0]}\0${r[1]}`);
          if (e) {
            failed.add(r[2]);
            if (failures.length < MAX_NAMED) failures.push({ key: r[0], versionId: r[1], reason: e.reason });
            const n = reasons.get(e.reason) || { reason: e.reason, count: 0 };
            n.count++;
            reasons.set(e.reason, n);
            report(r, { failed: true, reason: e.reason });
          } else {
            (r[3] === 1 ? markers : deleted).add(r[2]);
            report(r);
          }
        }
        limit.succeeded();
      }).catch((err) => { fatal = fatal || err; }).finally(() => { pending--; settle(); });
    };
    let batch = [];
    for await (const r of spool.read()) {
      if (fatal) break;
      batch.push(r);
      if (batch.length === BATCH) {
        send(batch);
        batch = [];
        while (pending >= 2 * limit.limit && !fatal) await new Promise((w) => waiters.push(w));
      }
    }
    if (batch.length && !fatal) send(batch);
    while (pending > 0) await new Promise((w) => waiters.push(w));
    if (fatal) throw describeS3Error(fatal, { bucket: store.bucket });
    return {
      planned: planned.toJSON(), deleted: deleted.toJSON(), deleteMarkers: markers.toJSON(), failed: failed.toJSON(), failures,
      failureReasons: [...reasons.values()].sort((a, b) => b.count - a.count), count,
    };
  } finally {
    spool.remove();
  }
}

/**
 * rm --all-versions as a library function: every version and delete marker of a source's
 * range (filter and pattern apply per version) deleted for good. Options: source (or
 * bucket), the range and filter options, allVersions (must be true), maxDelete, force,
 * dryrun, onDelete, signal. Resolves to deleteVersions' result with source, complete, stats, ok.
 */
async function removeVersions(options = {}) {
  if (!options.allVersions) throw new UsageError('removing versions needs allVersions: true (--all-versions)');
  if (options.asOf !== undefined) throw new UsageError('--as-of cannot be combined with rm --all-versions');
  option(options, 'maxDelete'); // a bad value refused before anything is listed
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const { listing, store, close } = openListing(Listing, { ...options, stats, signal, unordered: true });
  try {
    await store.open();
    const r = await deleteVersions(store.base || store, listing.pages(), { ...options, signal });
    return { source: listing.location.text, dryrun: Boolean(options.dryrun), ...r, complete: listing.complete, ok: r.failed.objects === 0, stats: stats.toJSON() };
  } finally {
    close();
  }
}

module.exports = { deleteVersions, removeVersions, BATCH };
