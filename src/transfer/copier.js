'use strict';
// The copy engine shared by cp and sync: schedules objects onto bounded pools (small and
// large), waits when the queue is full so the lister slows down, and accounts for every
// object: copied, failed, changed, skipped (archived), vanished, planned (dry run).
const { option, DEFAULTS } = require('../options');
const { classifyError, isFatalForRun } = require('./outcome');
const { httpStatus, errorCode, isThrottle, Throttled } = require('../stores/s3-errors');
const { PrefixLimit } = require('./prefix-limit');
const { TRANSFER_PART } = require('./part-layout');
const { BufferBudget } = require('./buffer-budget');
const { pickTransfer } = require('.');
const { AdaptiveLimit } = require('./adaptive-limit');
const { serverCopy } = require('./server-copy');
const { streamCopy } = require('./stream-copy');
const { UsageError, SafetyError } = require('../errors');
const { WriteGuard } = require('./no-overwrite');

const MAX_NAMED = 10000; // problems kept in the result; every one also goes to onObject
const MAX_PREFIXES = 10000; // target prefixes paced on their own; the rest share one
const OVERFLOW = '\u0000overflow';
// An object the store throttled is sent again after a pause that doubles with each try
// (50 ms to 5 s, jittered), up to MAX_THROTTLED tries in all (about a minute).
const MAX_THROTTLED = 20;
const backoff = (tries) => Math.min(5000, 50 * 2 ** tries) * (0.5 + Math.random() / 2);
// Answers to a server-side copy that say the server will not do it (not access or a change).
const COPY_REFUSED = new Set([400, 501]);

class Tally {
  constructor() { this.objects = 0; this.bytes = 0; }
  add(bytes) { this.objects++; this.bytes += bytes || 0; }
  toJSON() { return { objects: this.objects, bytes: this.bytes }; }
}

function copyOptions(options) {
  const o = {
    copyConcurrency: option(options, 'copyConcurrency'),
    largeCopyConcurrency: option(options, 'largeCopyConcurrency'),
    partConcurrency: option(options, 'partConcurrency'),
    maxQueueSize: option(options, 'maxQueueSize'),
    largeCopyThreshold: option(options, 'largeCopyThreshold'),
    partSize: option(options, 'partSize'),
    keepPartLayout: Boolean(options.keepPartLayout ?? DEFAULTS.keepPartLayout),
    maxFailures: option(options, 'maxFailures'),
  };
  return o;
}

// Requests a copy run may have in flight to one store: small copies, and parts of large ones.
function transferSockets(co) {
  return co.copyConcurrency + co.largeCopyConcurrency * co.partConcurrency;
}

function sameConnection(options) {
  return !options.toEndpointUrl && !options.toProfile && !options.toCredentials;
}

class Copier {
  /**
   * @param o {src, dst, w, co (copyOptions), sameConnection, dryrun, signal (abort requests),
   *   stopSignal (start no new copies), stats, onObject, onUpload, onConcurrency, log (notices, each once),
   *   onCreating and onTempDir (a journaled run's records before a multipart upload or a temp file),
   *   targetPrefix (where --no-overwrite's probe objects may go), afterCopy (async (job, outcome) -> outcome,
   *   after each object copied: mv's proof and delete), transfer (the function that copies each
   *   object, where the caller has its own: mv's rename; else picked for the two stores)}
   */
  constructor(o) {
    Object.assign(this, o);
    if (o.w && o.w.noOverwrite && o.dst.type !== 's3') throw new UsageError('--no-overwrite applies to S3 targets (If-None-Match), not to a folder');
    this.transfer = o.transfer || pickTransfer(o.src, o.dst, o.sameConnection);
    // Part buffers of uploads and copies through this machine, shared by every object: memory
    // stays at --part-concurrency parts whatever the sizes and number of large objects.
    this.memory = new BufferBudget(o.co.partConcurrency * (o.co.partSize || TRANSFER_PART));
    this.small = new AdaptiveLimit(o.co.copyConcurrency, { name: 'copy', onChange: o.onConcurrency });
    this.large = new AdaptiveLimit(o.co.largeCopyConcurrency, { name: 'large-copy', onChange: o.onConcurrency });
    // Each target prefix (the folder below prefixBase) is paced on its own: S3 limits
    // requests per prefix, so a hot prefix's SlowDowns must not slow the others.
    this.prefixBase = o.prefixBase || 0;
    this.prefixes = new Map();
    // Throttling that no prefix explains (the SDK's retries of other requests) slows both
    // pools; they climb back on their own. Throttled copy requests come back to copyOne.
    const slow = (err, key) => {
      const p = key !== undefined && this.prefixes.get(this.prefixOf(key));
      if (p) p.throttled();
      else { this.small.throttled(); this.large.throttled(); }
    };
    for (const store of new Set([o.src, o.dst])) {
      if (store.onThrottle) store.onThrottle(store === o.dst ? slow : () => { this.small.throttled(); this.large.throttled(); });
      if ('throttleToCaller' in store) store.throttleToCaller = true;
    }
    this.queued = 0;
    this.laneQueued = [0];
    this.laneShare = Infinity;
    this.fatal = null;
    this.waiters = [];
    this.tallies = { copied: new Tally(), planned: new Tally(), failed: new Tally(), changed: new Tally(), skipped: new Tally(), vanished: new Tally() };
    this.failures = [];
    this.reasons = new Map(); // a failure's reason without its key -> {reason, count}
    this.succeeded = 0; // objects this run copied (a resumed run's earlier ones not counted)
    this.capped = null; // set when every object so far failed the same way, --max-failures times
    this.noticed = new Set();
    // Each notice once per run (tag: what makes two notices the same).
    this.notice = (message, tag = message) => { if (!this.noticed.has(tag)) { this.noticed.add(tag); if (o.log) o.log(message); } };
    // --no-overwrite: request types are probed for If-None-Match before they write (no-overwrite.js).
    this.guard = o.w && o.w.noOverwrite && !o.dryrun ? new WriteGuard({ dst: o.dst, prefix: o.targetPrefix, signal: o.signal, notice: this.notice }) : null;
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

  // keyed: a failure decided by the key alone (a --to-key function, a collision), which
  // says nothing about the run going wrong: not counted towards --max-failures.
  record(item, targetKey, outcome, { keyed = false } = {}) {
    const tally = this.tallies[outcome.status] || this.tallies.failed;
    tally.add(outcome.bytes !== undefined ? outcome.bytes : item.Size);
    if (outcome.status === 'copied') this.succeeded++;
    else if (outcome.status === 'failed' && !keyed) this._countReason(item.Key, targetKey, outcome.reason);
    if (outcome.status !== 'copied' && outcome.status !== 'planned' && this.failures.length < MAX_NAMED) {
      this.failures.push({ key: item.Key, targetKey, status: outcome.status, reason: outcome.reason });
    }
    if (this.onObject) this.onObject({ key: item.Key, targetKey, size: item.Size, versionId: item.VersionId, ...outcome });
  }

  // Failures by reason, the keys left out so that one reason counts once; when the first
  // --max-failures objects all failed the same way and none succeeded, the run stops: a
  // wrong option (a storage class the store refuses) fails every object alike.
  _countReason(key, targetKey, reason) {
    let r = String(reason || 'failed');
    for (const k of [key, targetKey]) if (k) r = r.split(JSON.stringify(k)).join('"…"');
    const e = this.reasons.get(r) || { reason: r, count: 0 };
    e.count++;
    if (this.reasons.size < 1000 || this.reasons.has(r)) this.reasons.set(r, e);
    if (!this.capped && this.succeeded === 0 && e.count >= this.co.maxFailures) {
      this.capped = { reason: r, count: e.count };
      this.notice(`stopping: the first ${e.count} objects all failed the same way and none was copied (--max-failures ${this.co.maxFailures}): ${r}`);
      if (this.onCapped) this.onCapped();
    }
  }

  // Failures by distinct reason, most frequent first.
  failureReasons() {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count);
  }

  get stopped() { return Boolean(this.fatal || this.capped || this.signal.aborted || (this.stopSignal && this.stopSignal.aborted)); }

  // The prefix a target key is paced by: its folder at the first level below prefixBase.
  prefixOf(key) {
    const i = key.indexOf('/', this.prefixBase);
    return i < 0 ? '' : key.slice(0, i + 1);
  }

  _prefixLimit(key) {
    const name = this.prefixOf(key);
    let p = this.prefixes.get(name);
    if (!p) {
      // Past MAX_PREFIXES distinct prefixes, the rest share one (memory stays bounded).
      if (this.prefixes.size >= MAX_PREFIXES) return this.prefixes.get(OVERFLOW) || this._newPrefix(OVERFLOW);
      p = this._newPrefix(name);
    }
    return p;
  }

  _newPrefix(name) {
    const room = () => this.small.pendingCount === 0 && this.large.pendingCount === 0;
    // A folder on this machine is never throttled: it opens at once, where an S3 prefix
    // starts small and grows (a fresh prefix's limit is unknown).
    const startSlots = this.dst.type === 's3' ? undefined : this.co.copyConcurrency;
    const p = new PrefixLimit(this.co.copyConcurrency, { name: `prefix ${JSON.stringify(name)}`, onChange: this.onConcurrency, room, startSlots });
    this.prefixes.set(name, p);
    return p;
  }

  // Resolves when the object is queued (not copied): waits while the queue is full.
  // onDone(outcome) follows the object's outcome; an object never started (the run was
  // stopped) gets no outcome and no onDone.
  // lane: the listing the object came from (useLanes): a lane may fill at most its share of
  // the queue, so one slow lane (a throttled prefix) cannot starve the others.
  async add(item, targetKey, onDone, lane = 0) {
    if (this.fatal) throw this.fatal;
    if (this.dryrun) { this.record(item, targetKey, { status: 'planned' }); return; }
    while ((this.queued >= this.co.maxQueueSize || this.laneQueued[lane] >= this.laneShare) && !this.fatal) await new Promise((r) => this.waiters.push(r));
    if (this.fatal) throw this.fatal;
    this.queued++;
    this.laneQueued[lane] = (this.laneQueued[lane] || 0) + 1;
    this._start(item, targetKey, () => { this.laneQueued[lane]--; }, onDone, 0);
  }

  /** The objects come from n listings at once (plan/lanes.js). */
  useLanes(n) {
    this.laneShare = Math.max(100, Math.ceil(this.co.maxQueueSize / n));
  }

  // One try of an object: through its prefix's limit, then its pool. A throttled try holds
  // no slot while it waits to be sent again.
  _start(item, targetKey, left, onDone, tries) {
    const pool = item.Size > this.co.largeCopyThreshold ? this.large : this.small;
    const prefix = this._prefixLimit(targetKey);
    // The prefix's pacing judges a request by when it let it go, not by when the pool (every
    // prefix's requests in flight together) had room for it.
    prefix.run(() => { const released = Date.now(); return pool.run(() => (this.stopped ? null : this.copyOne(item, targetKey, prefix, released))); })
      .then((outcome) => {
        if (outcome && outcome.status === 'throttled' && !this.stopped && tries + 1 < MAX_THROTTLED) {
          setTimeout(() => this._start(item, targetKey, left, onDone, tries + 1), backoff(tries));
          return false;
        }
        if (outcome && outcome.status === 'throttled') outcome = { status: 'failed', reason: `still throttled (SlowDown) after ${MAX_THROTTLED} tries` };
        if (outcome) {
          if (outcome.status === 'copied') pool.succeeded();
          this.record(item, targetKey, outcome);
          if (onDone) onDone(outcome);
        }
        return true;
      }, (err) => { this.fatal = this.fatal || err; return true; })
      .then((settled) => { if (settled) { this.queued--; left(); this._wake(); } });
  }

  get concurrencyTrace() {
    const prefixes = {};
    for (const [name, p] of this.prefixes) if (p.trace.length && Object.keys(prefixes).length < 100) prefixes[name] = p.trace;
    return { copy: this.small.trace, largeCopy: this.large.trace, prefixes };
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

  async copyOne(item, targetKey, prefix, released) {
    const job = {
      item, src: this.src, dst: this.dst, key: targetKey, w: this.w, partSize: this.co.partSize, partConcurrency: this.co.partConcurrency,
      largeCopyThreshold: this.co.largeCopyThreshold, keepPartLayout: this.co.keepPartLayout, signal: this.signal, stats: this.stats, onUpload: this.onUpload, onCreating: this.onCreating, onTempDir: this.onTempDir,
      notice: this.notice, memory: this.memory, guard: this.guard,
    };
    for (let attempt = 0; ; attempt++) {
      const started = attempt === 0 && released !== undefined ? released : Date.now();
      try {
        const base = job.transfer || this.transfer;
        const outcome = await (this.guard ? await this.guard.route(job, base) : base)(job);
        if (prefix) prefix.succeeded(Date.now() - started);
        return outcome.status === 'copied' && this.afterCopy ? await this.settleCopy(job, outcome) : outcome;
      } catch (err) {
        // Cut short by the run's end: not an outcome; a resumed run will copy it.
        if (this.signal.aborted) return null;
        if (isFatalForRun(err) || err instanceof SafetyError) throw err;
        // Pushed back by the store: sent again later, when its prefix has room (see _start).
        if (isThrottle(err)) {
          if (prefix && err instanceof Throttled) prefix.throttled(Date.now() - started);
          return { status: 'throttled', reason: errorCode(err) };
        }
        const outcome = classifyError(err, { bucket: this.dst.bucket, key: targetKey, noOverwrite: Boolean(this.w && this.w.noOverwrite) });
        // --no-overwrite: a 412 is the target's If-None-Match or the source's pin, a 409 a write
        // of someone else's under way; the target itself says which (a 409 is tried once more).
        if (this.guard && (httpStatus(err) === 412 || httpStatus(err) === 409)) {
          const there = await this.dst.stat(targetKey, this.signal).catch(() => undefined);
          if (there) return { status: 'skipped', reason: 'exists (--no-overwrite)' };
          if (httpStatus(err) === 409) {
            if (attempt === 0) continue;
            return { status: 'failed', reason: `a conflicting write to the target key was under way, twice (HTTP 409 ${errorCode(err)})` };
          }
        }
        // Changed since listed: copy the new version once, never a mix of the two.
        if (outcome.status === 'changed' && attempt === 0) {
          const fresh = await this.currentVersion(item);
          if (fresh) { job.item = fresh; continue; }
          return { status: 'vanished', reason: item.VersionId !== undefined ? `version ${item.VersionId} deleted since it was listed` : 'deleted since it was listed' };
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

  // afterCopy(job, outcome) (mv: prove the copy, delete the source) in the copy's own slot,
  // so it is paced with the copies; what it throws fails the object, the copy made.
  async settleCopy(job, outcome) {
    try {
      return await this.afterCopy(job, outcome);
    } catch (err) {
      if (this.signal.aborted) return null;
      if (isFatalForRun(err) || err instanceof SafetyError) throw err;
      const c = classifyError(err, { bucket: this.src.bucket, key: job.item.Key });
      return { ...outcome, status: c.status === 'changed' ? 'changed' : 'failed', reason: `copied, but ${c.reason}` };
    }
  }

  // The source object as it is now (null when gone), for a second try at a changed object.
  // An item listed by version (--as-of, --version-id) is that version or nothing: today's
  // object in its place would be a restore of the wrong moment.
  async currentVersion(item) {
    if (item.VersionId !== undefined) return this.listedVersion(item);
    const now = await this.src.stat(item.Key, this.signal);
    return now && { ...item, ...now, StorageClass: now.StorageClass || item.StorageClass };
  }

  async listedVersion(item) {
    try {
      if (this.stats) this.stats.count('HEAD');
      const head = await this.src.headObject({ Key: item.Key, VersionId: item.VersionId }, this.signal);
      return { ...item, Size: head.ContentLength, ETag: head.ETag };
    } catch (err) {
      const status = httpStatus(err), code = errorCode(err);
      if (status === 404 || code === 'NoSuchVersion' || code === 'NoSuchKey' || code === 'NotFound') return null;
      throw err;
    }
  }

  result() {
    const t = this.tallies;
    const out = { copied: t.copied.toJSON(), failed: t.failed.toJSON(), changed: t.changed.toJSON(), skipped: t.skipped.toJSON(), vanished: t.vanished.toJSON() };
    if (this.dryrun) out.planned = t.planned.toJSON();
    out.failures = this.failures;
    out.failureReasons = this.failureReasons();
    if (this.capped) out.stoppedByFailures = this.capped;
    out.concurrencyTrace = this.concurrencyTrace;
    return out;
  }
}

module.exports = { Copier, Tally, copyOptions, sameConnection, transferSockets };
