'use strict';
// mv: cp, and each source deleted once its copy is proven to hold the same bytes
// (transfer/copy-proof.js), in the copy's own slot, so a move is paced like a copy. An S3
// source is deleted with the ETag its listing saw (If-Match, conditional-deletes.js), in
// DeleteObjects batches that gather the deletes of copies finishing together; a file only
// while its size and time are still those listed. A source whose copy is not proven, or that
// changed since it was listed, is kept and named. mv keeps no journal: a run that stopped
// part-way is finished by the same command, which finds only the sources not yet moved (a
// source copied but not yet deleted is copied once more). Within one directory bucket, an
// object that mv leaves as it is is renamed instead (RenameObject, transfer/rename.js):
// atomic, whatever its size, nothing to prove or delete.
const fs = require('fs');
const pLimit = require('p-limit');
const { copy } = require('./copy');
const { UsageError, ObjectError } = require('../errors');
const { Tally } = require('../transfer/copier');
const { proveCopy } = require('../transfer/copy-proof');
const { deleteCondition, deleteBatch } = require('./conditional-deletes');
const { localPath } = require('../stores/local-paths');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { renames, renameObject } = require('../transfer/rename');
const { option } = require('../options');
const T = require('../plan/tuning').values;

const BATCH = 1000; // DeleteObjects takes at most 1000 keys

// Deletes asked for one at a time, sent as batches: those that arrive within
// MOVE_DELETE_LINGER_MS of each other (or 1000) go in one DeleteObjects. Each caller gets
// its own key's fate ({status, reason}).
class DeleteBatcher {
  constructor(store, { condition, concurrency, signal }) {
    this.store = store;
    this.condition = condition; // () => Promise<{etags}>
    this.limit = pLimit(concurrency);
    this.signal = signal;
    this.waiting = [];
    this.timer = null;
  }

  delete(entry) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, resolve, reject });
      if (this.waiting.length >= BATCH) this.flush();
      else if (!this.timer) this.timer = setTimeout(() => this.flush(), T.MOVE_DELETE_LINGER_MS);
    });
  }

  flush() {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const batch = this.waiting.splice(0, BATCH);
    if (this.waiting.length) this.timer = setTimeout(() => this.flush(), 0);
    if (!batch.length) return;
    this.limit(async () => {
      const { etags } = await this.condition();
      const fates = await deleteBatch(this.store, batch.map((b) => b.entry), { etags, signal: this.signal });
      const byKey = new Map(fates.map((f) => [f.r.key, f]));
      for (const b of batch) b.resolve(byKey.get(b.entry.key));
    }).catch((err) => { for (const b of batch) b.reject(err); });
  }
}

/**
 * Moves objects: copy's options (source, target, range and filters, key mapping, write and
 * concurrency options, dryrun), plus deleteConcurrency and requireConditional for the
 * deletes. Resolves to copy's result with moved ({objects, bytes}: sources deleted) and
 * provenBy ({etag, checksum, md5, read, received, renamed}: how the copies were proven;
 * renamed: moved by RenameObject, nothing copied).
 */
async function mv(options = {}) {
  for (const [flag, given] of [['--all-versions', options.allVersions], ['--version-id', options.versionId !== undefined], ['--as-of', options.asOf !== undefined && options.asOf !== null]]) {
    if (given) throw new UsageError(`mv moves objects as they are now: ${flag} cannot be used (copy the versions with cp, then delete them with rm)`);
  }
  // --require-conditional refuses before the first copy, not after it.
  if (options.requireConditional) await refuseUnconditional(options);
  const moved = new Tally();
  const provenBy = { etag: 0, checksum: 0, md5: 0, read: 0, received: 0, renamed: 0 };
  let batcher = null, condition = null;
  const deleteS3 = (job) => {
    const { src } = job;
    // The probe of conditional deletes writes and deletes an object of its own in the folder
    // the source path names, as rm's does: where this run may write and delete (not beside
    // a source key, whose folder may hold characters a server cannot take in a batch).
    condition ??= deleteCondition(src, { prefix: probeFolder(options), signal: job.signal, requireConditional: options.requireConditional, log: options.log });
    batcher ??= new DeleteBatcher(src, { condition: () => condition, concurrency: option(options, 'deleteConcurrency'), signal: job.signal });
    return batcher.delete({ key: job.item.Key, size: job.item.Size, etag: job.item.ETag, modified: job.item.LastModified });
  };
  const afterCopy = async (job, outcome) => {
    const { item } = job;
    if (outcome.renamed) {
      provenBy.renamed++;
      moved.add(item.Size);
      return { ...outcome, moved: true, provenBy: 'renamed' };
    }
    const by = await proveCopy(job, outcome);
    let fate;
    if (job.src.type === 'local') fate = await deleteFile(job);
    else fate = await deleteS3(job);
    if (fate.status === 'deleted' || fate.status === 'vanished') {
      provenBy[by]++;
      moved.add(item.Size);
      return { ...outcome, moved: true, provenBy: by };
    }
    const status = fate.status === 'changed' ? 'changed' : 'failed';
    throw new ObjectError(status, `the source ${fate.status === 'changed' ? 'changed since it was listed' : `could not be deleted (${fate.reason})`}: it was kept`);
  };
  const transferFor = (src, dst, w, sameConnection) => {
    if (!renames(src, dst, w, sameConnection)) return undefined;
    if (options.log) options.log(`${src.bucket} is a directory bucket: objects are moved within it by RenameObject (atomic, nothing copied)`);
    return renameObject;
  };
  const r = await copy({ ...options, move: { afterCopy, transferFor, done: () => { if (batcher) batcher.flush(); } } });
  return { ...r, moved: moved.toJSON(), provenBy };
}

// Where the source's server is not found to honour conditional deletes: a SafetyError (exit
// 4) before anything is copied. A folder or a store of the caller's has nothing to probe here.
async function refuseUnconditional(options) {
  if (options.store) return;
  const loc = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  if (loc.type !== 's3') return;
  const { store } = openStore({ ...options, sourceLocation: loc, maxSockets: 2 }, 'source');
  try {
    await store.open();
    await deleteCondition(store, { prefix: probeFolder(options), signal: options.signal, requireConditional: true });
  } finally {
    store.destroy();
  }
}

// The folder the source path names (its part up to the last "/"), or the bucket's root.
function probeFolder(options) {
  if (options.store) return '';
  try {
    const loc = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
    return loc.type === 's3' && !loc.raw ? loc.base || '' : '';
  } catch { return ''; }
}

// A file is deleted only while it is as listed (its size and time): a file written since
// the upload read it would be lost.
async function deleteFile(job) {
  const { item, src } = job;
  const file = localPath(src.root, item.Key);
  let st;
  try { st = await fs.promises.stat(file); } catch (err) {
    if (err.code === 'ENOENT') return { status: 'vanished' };
    throw err;
  }
  if (st.size !== item.Size || (item.LastModified && st.mtime.getTime() !== +item.LastModified)) return { status: 'changed' };
  await fs.promises.unlink(file);
  return { status: 'deleted' };
}

module.exports = { mv, DeleteBatcher };
