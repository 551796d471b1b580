'use strict';
// Deletes that name what was listed (rm, sync --delete, rb --force): each key goes with the
// ETag its listing saw, so a key another writer rewrote since is left alone and reported as
// changed, and a key already gone is vanished (what the delete wanted holds). Whether the
// server honours the ETag is measured once, just before the first delete (the store's
// conditionalDeletes probe); where it does not, the run says so once and deletes as before,
// or, with requireConditional, refuses before deleting anything.
const pLimit = require('p-limit');
const { SafetyError } = require('../errors');
const { httpStatus, isThrottle, isAccessDenied } = require('../stores/s3-errors');

const RECHECK_CONCURRENCY = 16;

/**
 * How this run's deletes go: {etags: whether they carry the listed ETags}. Throws
 * SafetyError (exit 4) where requireConditional and the server is not known to honour them.
 */
async function deleteCondition(store, { prefix = '', signal, requireConditional = false, log } = {}) {
  if (store.type === 'local') return { etags: false }; // files: nothing to name them by
  const probe = store.conditionalDeletes ? await store.conditionalDeletes({ prefix, signal }) : { supported: false, etags: false, detail: 'a store of the caller\'s own, without conditionalDeletes' };
  if (probe.supported) return { etags: true };
  const what = probe.supported === false
    ? `the server does not honour conditional deletes (${probe.detail})`
    : `could not tell whether the server honours conditional deletes (${probe.detail})`;
  if (requireConditional) throw new SafetyError(`${what}: nothing was deleted (--require-conditional)`);
  if (log) log(`${what}: keys are deleted without checking that they are unchanged since they were listed (--require-conditional refuses instead)`);
  return { etags: probe.etags };
}

const byKey = (errors) => new Map(errors.map((e) => [e.key, e]));

// An answer to a whole DeleteObjects that says nothing of its keys: a server error or a
// body it could not read (not access, throttling or the network: those stand for every key).
function refusedWhole(err) {
  const status = httpStatus(err);
  return (status === 500 || status === 400 || status === 501) && !isThrottle(err) && !isAccessDenied(err);
}

/**
 * Deletes one batch ([{key, size, etag, modified?}], at most 1000) and says what became of each:
 * [{r, status: 'deleted' | 'changed' | 'vanished' | 'failed', reason}]. A key whose delete
 * met a concurrent write (409) is sent once more; a precondition that failed is told apart
 * by a HeadObject: the key is there (changed) or gone (vanished: some servers answer a
 * conditional delete of a missing key with 412).
 */
async function deleteBatch(store, batch, { etags = false, signal } = {}) {
  const entries = (rs) => rs.map((r) => (etags && r.etag ? { key: r.key, etag: r.etag } : r.key));
  let answered;
  try {
    answered = await store.deleteKeys(entries(batch), signal);
  } catch (err) {
    // A batch the server refused as a whole (moto answers some keys' DeleteObjects with a 500
    // page): each key then goes alone, so one it cannot take fails alone, named.
    if (!refusedWhole(err) || batch.length < 2 || store.type !== 's3') throw err;
    answered = await store.deleteKeys(entries(batch), signal, { eachAlone: true });
  }
  const errors = byKey(answered);
  const conflicted = batch.filter((r) => errors.has(r.key) && errors.get(r.key).code === 'ConditionalRequestConflict');
  if (conflicted.length) {
    const again = byKey(await store.deleteKeys(entries(conflicted), signal));
    for (const r of conflicted) { if (again.has(r.key)) errors.set(r.key, again.get(r.key)); else errors.delete(r.key); }
  }
  const limit = pLimit(RECHECK_CONCURRENCY);
  return Promise.all(batch.map((r) => {
    const e = errors.get(r.key);
    if (!e) return { r, status: 'deleted' };
    if (e.code === 'NoSuchKey') return { r, status: 'vanished', reason: 'deleted since it was listed' };
    if (e.code !== 'PreconditionFailed' && e.code !== 'ConditionalRequestConflict') return { r, status: 'failed', reason: e.reason };
    return limit(async () => {
      const now = store.stat ? await store.stat(r.key, signal).catch(() => undefined) : undefined;
      if (now === null) return { r, status: 'vanished', reason: 'deleted since it was listed' };
      if (now && !now.ETag) return unnamed(store, r, now, signal);
      const etag = now && now.ETag ? ` (ETag ${r.etag} when listed, ${now.ETag} now)` : '';
      return { r, status: 'changed', reason: `changed since it was listed${etag}: not deleted` };
    });
  }));
}

// A key the server refused to delete with its listed ETag, and whose HEAD gives no ETag to
// compare (s3proxy's folder objects: listed with the empty MD5, headed with none): judged by
// size and time where the caller listed its time (r.modified). Unchanged by both, it is
// deleted without the condition; otherwise it stays, and the reason says why.
async function unnamed(store, r, now, signal) {
  // To the second: a listing's times have milliseconds, a HEAD's Last-Modified has none.
  const second = (t) => Math.floor(+new Date(t) / 1000);
  const same = r.modified !== undefined && now.Size === r.size && Boolean(now.LastModified) && second(now.LastModified) === second(r.modified);
  if (!same) return { r, status: 'changed', reason: `the server refused the delete with the listed ETag and gives the key no ETag to compare${r.modified !== undefined ? ', and its size or time changed' : ''}: not deleted` };
  const [e] = await store.deleteKeys([r.key], signal);
  if (!e) return { r, status: 'deleted' };
  return e.code === 'NoSuchKey' ? { r, status: 'vanished', reason: 'deleted since it was listed' } : { r, status: 'failed', reason: e.reason };
}

module.exports = { deleteCondition, deleteBatch };
