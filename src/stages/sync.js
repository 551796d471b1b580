'use strict';
// sync: compare, then copy what is only in the source or different, and with --delete
// remove what is only in the target: only after every copy succeeded and both listings
// completed, from a delete set spooled to disk, and never past --max-delete or from an
// empty source unless --force.
const { Comparison, classifyAll, CLASSES, differenceFolders, addToFolders } = require('./compare');
const { Tally, copyOptions, transferSockets } = require('../transfer/copier');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { Spool } = require('../util/spool');
const { positiveInt } = require('../options');
const { UsageError, SafetyError } = require('../errors');
const { RunJournal } = require('../journal/run-journal');
const { CopyRun } = require('./copy-run');

function shouldCopy(cls, o) {
  if (cls === 'only-source' || cls === 'size-differs') return true;
  if (cls === 'content-differs') return !o.sizeOnly;
  if (cls === 'older') return Boolean(o.compareTime);
  return false;
}

/**
 * Options: everything compare and copy take, plus delete, maxDelete, force, sizeOnly,
 * dryrun, onDelete(key). S3P's overwrite is accepted and means what sync always does.
 */
async function sync(options = {}) {
  const maxDelete = options.maxDelete === undefined ? undefined : positiveInt(options.maxDelete, '--max-delete', { allowZero: true });
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
  const dst = cmp.dstListing.store;
  const progress = cmp.srcListing.progress;
  const src = cmp.srcListing.store.base || cmp.srcListing.store; // by version id with --as-of
  const run = new CopyRun({ options, journal, src, dst, w, co, stats: cmp.stats, signal: cmp.signal, progress });
  const { copier } = run;
  const classes = Object.fromEntries(CLASSES.map((c) => [c, new Tally()]));
  const folders = differenceFolders(cmp);
  const doomed = options.delete ? new Spool() : null;
  if (doomed && journal) for (const d of journal.doomed) doomed.push(d);
  let sourceObjects = journal && journal.hasNote('source-seen') ? 1 : 0;
  const deleted = new Tally();
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
      if (shouldCopy(cls, { ...options, compareTime: cmp.timeCompared })) return copier.add(pair.src, pair.targetKey, done);
      if (pair.src) progress.done('unchanged', pair.src.Size);
      if (cls === 'only-target' && doomed) { doomed.push({ key: pair.dst.Key, size: pair.dst.Size }); if (journal) journal.doom(pair.dst.Key, pair.dst.Size); }
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
      throw new SafetyError(`${doomed.count} objects would be deleted, more than --max-delete ${maxDelete}: nothing was deleted (raise --max-delete or pass --force)`);
    } else await deleteAll(dst, doomed, deleted, options, cmp);
  };
  const listed = () => cmp.srcListing.complete && cmp.dstListing.complete;
  const close = () => { cmp.close(); if (doomed) doomed.remove(); };
  const r = await run.run({ feed, listed, finish, close });
  return {
    source: cmp.srcListing.location.text, target: cmp.dstListing.location.text, method: cmp.method, dryrun: Boolean(options.dryrun),
    classes: Object.fromEntries(CLASSES.map((c) => [c, classes[c].toJSON()])), folders: folders.toJSON(),
    ...copier.result(), deleted: deleted.toJSON(), deleteRefused, unmappable: cmp.failures,
    complete: r.complete, interrupted: r.interrupted, journal: r.journal,
    ok: copier.ok && cmp.failures.length === 0 && !deleteRefused,
    stats: cmp.stats.toJSON(),
  };
}

async function deleteAll(store, doomed, tally, options, cmp) {
  let batch = [];
  const flush = async () => {
    if (!batch.length) return;
    const b = batch;
    batch = [];
    if (options.dryrun) { for (const r of b) { tally.add(r.size); if (options.onDelete) options.onDelete({ key: r.key, size: r.size, dryrun: true }); } return; }
    const errors = new Map((await store.deleteKeys(b.map((r) => r.key), cmp.signal)).map((e) => [e.key, e]));
    // Every key the batch did delete is counted and reported before a failure stops the run.
    let failed = null;
    for (const r of b) {
      const e = errors.get(r.key);
      if (e) { failed = failed || { key: r.key, reason: e.reason }; continue; }
      tally.add(r.size);
      if (options.onDelete) options.onDelete({ key: r.key, size: r.size });
    }
    if (failed) throw new Error(`delete of ${JSON.stringify(failed.key)} failed: ${failed.reason}${errors.size > 1 ? ` (and ${errors.size - 1} more in the same batch)` : ''}`);
  };
  for await (const r of doomed.read()) {
    batch.push(r);
    if (batch.length === 1000) await flush();
  }
  await flush();
}

module.exports = { sync, shouldCopy };
