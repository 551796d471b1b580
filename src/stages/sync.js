'use strict';
// sync: compare, then copy what is only in the source or different, and with --delete
// remove what is only in the target: only after every copy succeeded and both listings
// completed, from a delete set spooled to disk, and never past --max-delete or from an
// empty source unless --force. Each delete names the ETag the target's listing saw, so a key
// rewritten meanwhile stays (conditional-deletes.js). With noOverwrite only keys missing on
// the target are written (with If-None-Match: *); keys that differ are left, as skipped.
const { Comparison, classifyAll, CLASSES, differenceFolders, addToFolders } = require('./compare');
const { Tally, copyOptions, transferSockets } = require('../transfer/copier');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { Spool } = require('../util/spool');
const { option } = require('../options');
const { UsageError, SafetyError, S3BlitzError } = require('../errors');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');
const { deleteCondition, deleteBatch } = require('./conditional-deletes');
const { objectUrl } = require('../stores/object-url');

function shouldCopy(cls, o) {
  if (cls === 'only-source' || cls === 'size-differs') return true;
  if (cls === 'content-differs') return !o.sizeOnly;
  if (cls === 'older') return Boolean(o.compareTime);
  return false;
}

/**
 * Options: everything compare and copy take, plus delete, maxDelete, force, sizeOnly,
 * requireConditional, noOverwrite, dryrun, onDelete({key, size, dryrun} or {key, size, status,
 * reason}). S3P's overwrite is accepted and means what sync always does (without noOverwrite).
 */
async function sync(options = {}) {
  const maxDelete = option(options, 'maxDelete');
  if (options.delete && options.toKey) throw new UsageError('--delete cannot be combined with --to-key: the target may hold keys the function never produces');
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  // A --to-key sync sorts the whole source first; it is not resumable, so keeps no journal.
  const journal = options.toKey ? null : RunJournal.open('sync', options);
  let cmp;
  try {
    const sockets = transferSockets(co);
    cmp = new Comparison({ ...options, startAfter: journal && journal.resumeAfter !== null ? journal.resumeAfter : options.startAfter, sourceSockets: sockets, targetSockets: sockets });
  } catch (err) {
    if (journal) journal.abandon();
    throw err;
  }
  const { srcStore: src, dstStore: dst } = cmp; // the source's store reads by version id with --as-of
  const progress = cmp.srcListing.progress;
  let run;
  try {
    run = new CopyRun({ options, journal, src, dst, w, co, stats: cmp.stats, signal: cmp.signal, progress, targetPrefix: cmp.dstListing.range.prefix || '' });
  } catch (err) {
    cmp.close();
    if (journal) journal.abandon();
    throw err;
  }
  const { copier } = run;
  const classes = Object.fromEntries(CLASSES.map((c) => [c, new Tally()]));
  const folders = differenceFolders(cmp);
  const doomed = options.delete ? new Spool() : null;
  if (doomed && journal) for (const d of journal.doomed) doomed.push(d);
  let sourceObjects = journal && journal.hasNote('source-seen') ? 1 : 0;
  const deleted = new Tally(), deleteChanged = new Tally(), deleteVanished = new Tally();
  let deleteRefused = null;
  const feed = async () => {
    const unmap = cmp.mapper.unmapPrefix || ((k) => k);
    const onSeen = (pair) => {
      if (journal && journal.isDone(pair.targetKey)) return false;
      pair.token = journal && journal.track(pair.targetKey, pair.src ? pair.src.Key : unmap(pair.targetKey));
      return true;
    };
    await classifyAll(cmp, async (pair, cls) => {
      classes[cls].add((pair.src || pair.dst).Size);
      addToFolders(folders, pair, cls);
      if (pair.src) { sourceObjects++; if (journal) journal.note('source-seen'); }
      const done = pair.token && ((outcome) => journal.finished(pair.token, outcome, pair.src, pair.targetKey));
      if (shouldCopy(cls, { ...options, compareTime: cmp.timeCompared })) {
        // --no-overwrite: a key the target has is never written, however it differs.
        if (w.noOverwrite && pair.dst) {
          const outcome = { status: 'skipped', reason: 'exists (--no-overwrite)' };
          copier.record(pair.src, pair.targetKey, outcome);
          if (done) done(outcome);
          return undefined;
        }
        return copier.add(pair.src, pair.targetKey, done);
      }
      if (pair.src) progress.done('unchanged', pair.src.Size);
      if (cls === 'only-target' && doomed) { doomed.push({ key: pair.dst.Key, size: pair.dst.Size, etag: pair.dst.ETag }); if (journal) journal.doom(pair.dst.Key, pair.dst.Size, pair.dst.ETag); }
      if (done) done(null);
    }, { onSeen, stopSignal: run.stopSignal });
    return { interrupted: cmp.interrupted };
  };
  // Deletes only after every copy, from complete listings, within the safety limits.
  const finish = async ({ complete }) => {
    if (!doomed || doomed.count === 0) return;
    if (!copier.ok) deleteRefused = 'some copies failed: nothing was deleted';
    else if (!complete) deleteRefused = 'a listing was incomplete: nothing was deleted';
    else if (sourceObjects === 0 && !options.force) {
      throw new SafetyError(`the source listing is empty: refusing to delete ${doomed.count} target objects (check the source, or pass --force)`);
    } else if (maxDelete !== undefined && doomed.count > maxDelete && !options.force) {
      throw new SafetyError(`${doomed.count} object${doomed.count === 1 ? '' : 's'} would be deleted, more than --max-delete ${maxDelete}: nothing was deleted (raise --max-delete or pass --force)`);
    } else await deleteAll(dst, doomed, { deleted, changed: deleteChanged, vanished: deleteVanished }, options, cmp);
  };
  const listed = () => cmp.srcListing.complete && cmp.dstListing.complete;
  const close = () => { cmp.close(); if (doomed) doomed.remove(); };
  let deleting = false;
  const finishing = async (x) => { deleting = true; return finish(x); };
  let r;
  try {
    r = await run.run({ feed, listed, finish: finishing, close });
  } catch (err) {
    // A listing (or anything else) that failed before the deletes: the line says none happened.
    if (doomed && !deleting && !options.dryrun && err instanceof S3BlitzError && !/nothing was deleted/.test(err.message)) err.message += ': nothing was deleted';
    throw err;
  }
  return {
    source: cmp.srcListing.location.text, target: cmp.dstListing.location.text, method: cmp.method, dryrun: Boolean(options.dryrun),
    classes: Object.fromEntries(CLASSES.map((c) => [c, classes[c].toJSON()])), judgedBy: cmp.judgedBy, folders: folders.toJSON(),
    ...copier.result(), deleted: deleted.toJSON(), deleteChanged: deleteChanged.toJSON(), deleteVanished: deleteVanished.toJSON(),
    deleteRefused, unmappable: cmp.failures,
    complete: r.complete, interrupted: r.interrupted, journal: r.journal,
    ok: copier.ok && cmp.failures.length === 0 && !deleteRefused && deleteChanged.objects === 0,
    stats: cmp.stats.toJSON(),
  };
}

// The delete set, 1000 keys a request, each with the ETag the target's listing saw (where the
// server honours it: one probe first). A key rewritten since is left and counted as changed,
// one already gone as vanished; any other failure stops the run once its batch is counted.
async function deleteAll(store, doomed, tallies, options, cmp) {
  let condition = null;
  let batch = [];
  const flush = async () => {
    if (!batch.length) return;
    const b = batch;
    batch = [];
    if (options.dryrun) { for (const r of b) { tallies.deleted.add(r.size); if (options.onDelete) options.onDelete({ key: r.key, size: r.size, url: objectUrl(store, r.key), dryrun: true }); } return; }
    condition ??= await deleteCondition(store, { prefix: cmp.dstListing.range.prefix, signal: cmp.signal, requireConditional: options.requireConditional, log: options.log });
    let failed = null, failures = 0;
    for (const { r, status, reason } of await deleteBatch(store, b, { etags: condition.etags, signal: cmp.signal })) {
      if (status === 'failed') { failed = failed || { key: r.key, reason }; failures++; continue; }
      tallies[status].add(r.size);
      if (options.onDelete) options.onDelete({ key: r.key, size: r.size, url: objectUrl(store, r.key), ...(status === 'deleted' ? {} : { status, reason }) });
    }
    if (failed) throw new Error(`delete of ${JSON.stringify(failed.key)} failed: ${failed.reason}${failures > 1 ? ` (and ${failures - 1} more in the same batch)` : ''}`);
  };
  for await (const r of doomed.read()) {
    batch.push(r);
    if (batch.length === 1000) await flush();
  }
  await flush();
}

module.exports = { sync, shouldCopy };
