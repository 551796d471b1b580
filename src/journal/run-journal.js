'use strict';
// Ties a run's journal to its copier: a watermark over the keys in listing order, failures,
// open multipart uploads, (sync) the delete set, and the folders of its temp files. Marks go
// out with every flush.
const { Journal } = require('./journal');
const { removeRunTempFiles, tempCleanupText } = require('../stores/temp-files');
const { Watermark } = require('./watermark');
const { option } = require('../options');

const PROBLEMS = new Set(['failed', 'changed', 'skipped', 'vanished']);
// A mark goes out every second and after this many finished objects, whichever comes
// first: a kill loses at most the objects in flight plus one batch.
const BATCH = 256;

class RunJournal {
  // null when the run keeps no journal (dry runs, journal: false).
  static open(command, options) {
    if (options.dryrun || options.journal === false) return null;
    const maxAgeMs = option(options, 'resumeMaxAge');
    return new RunJournal(Journal.open(command, options, { maxAgeMs, log: options.log }));
  }

  constructor(journal) {
    this.journal = journal;
    this.wms = [new Watermark()]; // one per lane: keys enter each in key order
    this.lastMarks = [];
    this.copier = null;
    this.uploadsByKey = new Map();
    this.creatingKeys = new Set();
    this.sinceFlush = 0;
    journal.beforeFlush = () => this._mark();
  }

  get file() { return this.journal.file; }
  get resumed() { return this.journal.resumed; }
  get resumeAfter() { return this.journal.upToSource; }
  // The lanes' boundaries an earlier run of this command used (null: none).
  get lanes() { return this.journal.lanes; }
  resumeAfterLane(i) { return this.journal.laneUpTo(i); }

  // This run lists in lanes cut at these boundaries (recorded once, for a resume).
  useLanes(bounds) {
    while (this.wms.length < bounds.length + 1) this.wms.push(new Watermark());
    if (!this.journal.lanes) this.journal.setLanes(bounds);
    else if (JSON.stringify(this.journal.lanes) !== JSON.stringify(bounds)) throw new Error('a resumed run must list the lanes it was journaled with');
  }
  get upTo() { return this.journal.upTo; } // the watermark's own key (journal names)
  get doomed() { return this.journal.doomed; }

  attach(copier) {
    this.copier = copier;
    if (this.journal.totals || this.journal.failures.length) copier.restore(this.journal.totals, this.journal.failures);
  }

  // temp: what cleanupTemp() did, said once here.
  describe(temp) {
    const t = this.journal.totals;
    const copied = t && t.copied ? t.copied.objects : 0;
    const deleted = t && t.deleted ? `, ${t.deleted.objects.toLocaleString('en-US')} deleted` : '';
    const removed = temp && temp.text ? `; ${temp.text}` : '';
    return `resuming from ${this.file}: ${copied.toLocaleString('en-US')} objects already copied${deleted}` +
      (this.journal.upTo !== null ? `, continuing after ${JSON.stringify(this.journal.upTo)}` : '') + `${removed} (--no-resume starts afresh)`;
  }

  /**
   * Removes the temp files the run this one takes over left in a local target (a kill leaves
   * those of the copies in flight), or those of a journal this run did not resume. Resolves to
   * {removed, failedCount, failed, text}; text: '' when there was nothing to remove.
   */
  async cleanupTemp() {
    const stale = this.journal.staleTemp;
    if (!stale) return { removed: 0, failedCount: 0, failed: [], text: '' };
    this.journal.staleTemp = null;
    const r = await removeRunTempFiles(stale);
    return { ...r, text: tempCleanupText(r, stale.token) };
  }

  // The copier's onTempDir: the folder journaled (once), then the token to name the file with.
  async tempDir(dir) {
    await this.journal.tempDir(dir);
    return this.journal.token;
  }

  isDone(key) { return this.journal.done.has(key); }

  track(key, sourceKey, lane = 0) {
    const token = this.wms[lane].add(key, sourceKey);
    token.lane = lane;
    return token;
  }

  finished(token, outcome, item, targetKey) {
    if (outcome && PROBLEMS.has(outcome.status)) {
      this.journal.failed({ key: item.Key, targetKey, status: outcome.status, reason: outcome.reason });
    }
    const id = this.uploadsByKey.get(targetKey);
    if (id) { this.journal.closed(id); this.uploadsByKey.delete(targetKey); }
    if (this.creatingKeys.delete(targetKey)) this.journal.settled(targetKey);
    this.wms[token.lane].finish(token);
    if (++this.sinceFlush >= BATCH) { this.sinceFlush = 0; this.journal.flush(); }
  }

  creating(bucket, key) {
    this.creatingKeys.add(key);
    return this.journal.creating(bucket, key);
  }

  upload(bucket, key, id) {
    this.uploadsByKey.set(key, id);
    this.journal.upload(bucket, key, id);
  }

  doom(key, size, etag) { this.journal.doom(key, size, etag); }

  // The copier's multipart hooks for a run, journaled when there is a journal; the caller's
  // onUpload(uploadId, key) is called either way.
  static copierHooks(journal, bucket, options) {
    return {
      onUpload: (key, id) => {
        if (journal) journal.upload(bucket, key, id);
        if (options.onUpload) options.onUpload(id, key);
      },
      onCreating: journal ? (key) => journal.creating(bucket, key) : undefined,
      onTempDir: journal ? (dir) => journal.tempDir(dir) : undefined,
    };
  }

  note(n) { this.journal.note(n); }

  hasNote(n) { return this.journal.notes.has(n); }

  // Multipart uploads an earlier run started and never finished: abort them.
  async cleanupUploads(store, stats) {
    const abort = async (bucket, key, uploadId) => {
      const err = await store.abortUpload({ bucket, key, uploadId }, stats);
      if (err) throw err;
    };
    for (const [id, u] of this.journal.uploads) {
      await abort(u.bucket, u.key, id);
      this.journal.closed(id);
    }
    this.journal.uploads.clear();
    // Uploads created just before a kill, whose UploadId never reached us: find them by key.
    for (const [key, bucket] of this.journal.pendingCreates) {
      stats.count('LIST');
      const out = await store.listMultipartUploads({ Bucket: bucket, Prefix: key });
      for (const u of out.Uploads || []) {
        if (u.Key === key) await abort(bucket, key, u.UploadId);
      }
      this.journal.settled(key);
    }
    this.journal.pendingCreates.clear();
  }

  _mark() {
    const totals = this.copier ? this.copier.totals() : null;
    this.wms.forEach((wm, lane) => {
      const newly = wm.takeNewly();
      const key = `${wm.upTo}\u0000${newly.length}`;
      if (!newly.length && this.lastMarks[lane] === key) return;
      this.lastMarks[lane] = key;
      this.journal.mark(wm.upTo, wm.upToSource, newly, totals, lane);
    });
  }

  complete() { this.journal.remove(); }

  // The run ended by a refusal or a fatal error: nothing to resume (a run of the same
  // command starts afresh).
  abandon() { this.journal.remove(); }

  // Kept for a resume, unless this run started afresh and never got to any object.
  keep() {
    if (!this.journal.resumed && this.wms.every((wm) => wm.seq === 0)) this.journal.remove();
    else this.journal.close();
  }
}

module.exports = { RunJournal, BATCH };
