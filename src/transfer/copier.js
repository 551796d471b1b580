'use strict';
// The copy engine shared by cp and sync: schedules objects onto bounded pools (small and
// large), waits when the queue is full so the lister slows down, and accounts for every
// object: copied, failed, changed, skipped (archived), vanished, planned (dry run).
const { positiveInt, DEFAULTS } = require('../options');
const { classifyError, isFatalForRun } = require('./outcome');
const { httpStatus, errorCode } = require('../stores/s3-errors');
const { parseSize, MIN_PART, MAX_PART } = require('./part-layout');
const { pickTransfer } = require('.');
const { AdaptiveLimit } = require('./adaptive-limit');
const { serverCopy } = require('./server-copy');
const { streamCopy } = require('./stream-copy');
const { UsageError } = require('../errors');

const MAX_NAMED = 10000; // problems kept in the result; every one also goes to onObject
// Answers to a server-side copy that say the server will not do it (not access or a change).
const COPY_REFUSED = new Set([400, 501]);

class Tally {
  constructor() { this.objects = 0; this.bytes = 0; }
  add(bytes) { this.objects++; this.bytes += bytes || 0; }
  toJSON() { return { objects: this.objects, bytes: this.bytes }; }
}

function copyOptions(options) {
  const o = {
    copyConcurrency: positiveInt(options.copyConcurrency ?? DEFAULTS.copyConcurrency, '--copy-concurrency'),
    largeCopyConcurrency: positiveInt(options.largeCopyConcurrency ?? DEFAULTS.largeCopyConcurrency, '--large-copy-concurrency'),
    partConcurrency: positiveInt(options.partConcurrency ?? DEFAULTS.partConcurrency, '--part-concurrency'),
    maxQueueSize: positiveInt(options.maxQueueSize ?? DEFAULTS.maxQueueSize, '--max-queue-size'),
    largeCopyThreshold: parseSize(options.largeCopyThreshold ?? DEFAULTS.largeCopyThreshold, '--large-copy-threshold'),
    partSize: parseSize(options.partSize, '--part-size'),
    keepPartLayout: Boolean(options.keepPartLayout ?? DEFAULTS.keepPartLayout),
  };
  if (o.partSize !== undefined && (o.partSize < MIN_PART || o.partSize > MAX_PART)) throw new UsageError('--part-size must be between 5MiB and 5GiB');
  return o;
}

function sameConnection(options) {
  return !options.toEndpointUrl && !options.toProfile && !options.toCredentials;
}

class Copier {
  /**
   * @param o {src, dst, w, co (copyOptions), sameConnection, dryrun, signal (abort requests),
   *   stopSignal (start no new copies), stats, onObject, onUpload, onConcurrency, log (notices, each once)}
   */
  constructor(o) {
    Object.assign(this, o);
    this.transfer = pickTransfer(o.src, o.dst, o.sameConnection);
    this.small = new AdaptiveLimit(o.co.copyConcurrency, { name: 'copy', onChange: o.onConcurrency });
    this.large = new AdaptiveLimit(o.co.largeCopyConcurrency, { name: 'large-copy', onChange: o.onConcurrency });
    // Throttling on either side slows both pools; they climb back on their own.
    const slow = () => { this.small.throttled(); this.large.throttled(); };
    for (const store of new Set([o.src, o.dst])) if (store.onThrottle) store.onThrottle(slow);
    this.queued = 0;
    this.fatal = null;
    this.waiters = [];
    this.tallies = { copied: new Tally(), planned: new Tally(), failed: new Tally(), changed: new Tally(), skipped: new Tally(), vanished: new Tally() };
    this.failures = [];
    this.noticed = new Set();
    // Each notice once per run (tag: what makes two notices the same).
    this.notice = (message, tag = message) => { if (!this.noticed.has(tag)) { this.noticed.add(tag); if (o.log) o.log(message); } };
  }

  // Counts and failures carried over from an earlier run of the same command.
  restore(totals, failures) {
    for (const [k, t] of Object.entries(totals || {})) if (this.tallies[k]) { this.tallies[k].objects += t.objects; this.tallies[k].bytes += t.bytes; }
    for (const f of failures || []) if (this.failures.length < MAX_NAMED) this.failures.push(f);
  }

  totals() {
    return Object.fromEntries(Object.entries(this.tallies).map(([k, t]) => [k, t.toJSON()]));
  }

  get ok() { return this.tallies.failed.objects === 0 && this.tallies.changed.objects === 0; }

  record(item, targetKey, outcome) {
    const tally = this.tallies[outcome.status] || this.tallies.failed;
    tally.add(outcome.bytes !== undefined ? outcome.bytes : item.Size);
    if (outcome.status !== 'copied' && outcome.status !== 'planned' && this.failures.length < MAX_NAMED) {
      this.failures.push({ key: item.Key, targetKey, status: outcome.status, reason: outcome.reason });
    }
    if (this.onObject) this.onObject({ key: item.Key, targetKey, size: item.Size, versionId: item.VersionId, ...outcome });
  }

  get stopped() { return Boolean(this.fatal || this.signal.aborted || (this.stopSignal && this.stopSignal.aborted)); }

  // Resolves when the object is queued (not copied): waits while the queue is full.
  // onDone(outcome) follows the object's outcome; an object never started (the run was
  // stopped) gets no outcome and no onDone.
  async add(item, targetKey, onDone) {
    if (this.fatal) throw this.fatal;
    if (this.dryrun) { this.record(item, targetKey, { status: 'planned' }); return; }
    while (this.queued >= this.co.maxQueueSize && !this.fatal) await new Promise((r) => this.waiters.push(r));
    if (this.fatal) throw this.fatal;
    this.queued++;
    const pool = item.Size > this.co.largeCopyThreshold ? this.large : this.small;
    pool.run(() => (this.stopped ? null : this.copyOne(item, targetKey)))
      .then((outcome) => {
        if (!outcome) return;
        if (outcome.status === 'copied') pool.succeeded();
        this.record(item, targetKey, outcome);
        if (onDone) onDone(outcome);
      }, (err) => { this.fatal = this.fatal || err; })
      .finally(() => { this.queued--; this._wake(); });
  }

  get concurrencyTrace() {
    return { copy: this.small.trace, largeCopy: this.large.trace };
  }

  _wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const r of w) r();
  }

  async drain() {
    while (this.queued > 0) await new Promise((r) => this.waiters.push(r));
    if (this.fatal) throw this.fatal;
  }

  async copyOne(item, targetKey) {
    const job = {
      item, src: this.src, dst: this.dst, key: targetKey, w: this.w, partSize: this.co.partSize, partConcurrency: this.co.partConcurrency,
      largeCopyThreshold: this.co.largeCopyThreshold, keepPartLayout: this.co.keepPartLayout, signal: this.signal, stats: this.stats, onUpload: this.onUpload, onCreating: this.onCreating,
      notice: this.notice,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await (job.transfer || this.transfer)(job);
      } catch (err) {
        // Cut short by the run's end: not an outcome; a resumed run will copy it.
        if (this.signal.aborted) return null;
        if (isFatalForRun(err)) throw err;
        const outcome = classifyError(err, { bucket: this.dst.bucket, key: targetKey });
        // Changed since listed: copy the new version once, never a mix of the two.
        if (outcome.status === 'changed' && attempt === 0) {
          const fresh = await this.currentVersion(item);
          if (fresh) { job.item = fresh; continue; }
          return { status: 'vanished', reason: 'deleted since it was listed' };
        }
        // A server-side copy refused, or said to find no source, for an object the server still
        // serves as listed (SeaweedFS answers 404 and versitygw 400 for a folder object "dir/"):
        // its bytes go through here instead.
        const refused = outcome.status === 'vanished' || (outcome.status === 'failed' && COPY_REFUSED.has(httpStatus(err)));
        if (refused && this.transfer === serverCopy && job.transfer !== streamCopy) {
          const now = await this.currentVersion(item);
          if (now && now.ETag === item.ETag) {
            this.notice(`the server refuses server-side copies of some objects it lists and serves (the first: ${JSON.stringify(item.Key)}, answered ${errorCode(err)}): those are copied through s3blitz instead`, 'copy-refused');
            job.transfer = streamCopy;
            continue;
          }
        }
        return outcome;
      }
    }
  }

  // The source object as it is now (null when gone), for a second try at a changed object.
  async currentVersion(item) {
    const now = await this.src.stat(item.Key, this.signal);
    return now && { ...item, ...now, StorageClass: now.StorageClass || item.StorageClass };
  }

  result() {
    const t = this.tallies;
    const out = { copied: t.copied.toJSON(), failed: t.failed.toJSON(), changed: t.changed.toJSON(), skipped: t.skipped.toJSON(), vanished: t.vanished.toJSON() };
    if (this.dryrun) out.planned = t.planned.toJSON();
    out.failures = this.failures;
    out.concurrencyTrace = this.concurrencyTrace;
    return out;
  }
}

module.exports = { Copier, Tally, copyOptions, sameConnection };
