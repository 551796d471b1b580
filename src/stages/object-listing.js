'use strict';
// A listing whose items carry their metadata (withMetadata: one HeadObject each) and tags
// (withTags: GetObjectTagging, only where HeadObject counts any). The HEADs run while the
// listing goes on, up to headConcurrency at once on the lean request path, fewer while the
// store throttles (transfer/adaptive-limit.js). --filter runs after them, so it sees the
// fields; --pattern, which reads keys only, runs before them and spares their requests.
// Pages come out in key order (or as they finish, for unordered listings); at most a
// window of objects waits for its HEAD, so memory does not grow with the bucket.
const { Listing } = require('../list/listing');
const { ItemChunk } = require('../stores/chunks');
const { AdaptiveLimit } = require('../transfer/adaptive-limit');
const { withMetadata, tagsOf } = require('../stores/object-metadata');
const { httpStatus, errorCode } = require('../stores/s3-errors');
const { userFunction } = require('../js-function');
const { option } = require('../options');
const { UsageError, FatalError } = require('../errors');
const { PRICE_PER_1000 } = require('../stats');

// What summarize --by needs from a HEAD: metadata:NAME and content-type, or tags too.
function headsFor(by) {
  if (!by) return { metadata: false, tags: false };
  const b = String(by);
  return { metadata: true, tags: b.startsWith('tag:') };
}

// The problems a scan names: the object is gone, changed since listed, or the request failed.
function problemOf(err) {
  const status = httpStatus(err), code = errorCode(err);
  if (status === 404 || code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchVersion') return { status: 'vanished', reason: 'deleted since it was listed' };
  if (status === 412 || code === 'PreconditionFailed') return { status: 'changed', reason: 'changed since it was listed' };
  return { status: 'failed', reason: `${code || 'error'}${err && err.message && err.message !== code ? `: ${err.message}` : ''}`.slice(0, 300) };
}

// Whether a listing with these options asks every object's metadata or tags.
function scanOf(options) {
  const want = headsFor(options.by);
  const metadata = Boolean(options.withMetadata) || want.metadata;
  const tags = Boolean(options.withTags) || want.tags;
  return { heads: metadata || tags, tags };
}

class ObjectListing extends Listing {
  // The HEADs need sockets of their own, beside the list requests.
  static openStore(options, stats) {
    if (!scanOf(options).heads) return super.openStore(options, stats);
    const sockets = option(options, 'listConcurrency') + option(options, 'headConcurrency');
    return super.openStore({ ...options, maxSockets: Math.max(options.maxSockets || 0, sockets) }, stats);
  }

  constructor(options = {}) {
    const { heads, tags } = scanOf(options);
    const headConcurrency = option(options, 'headConcurrency');
    // The filter waits for the HEADs when there are any.
    super(heads ? { ...options, filter: undefined } : options);
    this.heads = heads;
    this.withTags = tags;
    this.lateFilter = this.heads ? userFunction(options.filter, '--filter') : null;
    this.headConcurrency = headConcurrency;
    this.onProblem = options.onProblem || null;
    this.scan = { heads: 0, tagging: 0, vanished: 0, changed: 0, failed: 0, ms: 0, problems: [] };
    if (this.heads && typeof (this.store.base || this.store).headObject !== 'function') {
      this.close();
      throw new UsageError('--metadata, --tags and --by need an S3 source (HeadObject)');
    }
  }

  async *chunks() {
    if (!this.heads) { yield* super.chunks(); return; }
    yield* this._scanned(super.chunks());
  }

  // A summary of the scan for reports: requests, their rate and cost, and problems.
  scanReport() {
    const s = this.scan;
    const secs = s.ms / 1000;
    return {
      headRequests: s.heads, taggingRequests: s.tagging, seconds: Number(secs.toFixed(3)),
      headsPerSecond: secs > 0 ? Math.round(s.heads / secs) : null,
      vanished: s.vanished, changed: s.changed, failed: s.failed, problems: s.problems.slice(0, 10000),
      estimatedCostUSD: Number((((s.heads + s.tagging) * PRICE_PER_1000.HEAD) / 1000).toFixed(6)),
    };
  }

  async *_scanned(source) {
    const s3 = this.store.base || this.store;
    const limit = new AdaptiveLimit(this.headConcurrency, { name: 'head', onChange: this.options.onConcurrency });
    if (s3.onThrottle) s3.onThrottle(() => limit.throttled());
    const window = Math.max(4 * this.headConcurrency, 2000);
    const ordered = this.options.unordered !== true;
    const jobs = [];
    let pending = 0, ended = false, failure = null, stopped = false;
    let wake = null;
    const roomWaiters = [];
    const changed = () => { if (wake) { const w = wake; wake = null; w(); } };
    const started = Date.now();
    const reader = (async () => {
      try {
        for await (const chunk of source) {
          if (stopped || failure) break;
          const items = chunk.toItems();
          const job = { items, left: items.length };
          jobs.push(job);
          const done = () => {
            pending--;
            if (--job.left === 0) changed();
            if (roomWaiters.length && pending < window) for (const r of roomWaiters.splice(0)) r();
          };
          const fail = (err) => { failure = failure || err; done(); changed(); };
          for (let i = 0; i < items.length; i++) {
            pending++;
            limit.run(() => (stopped || failure ? null : this._enrich(s3, job, i, limit))).then(done, fail);
          }
          changed();
          while (pending >= window && !failure && !stopped) await new Promise((r) => roomWaiters.push(r));
        }
      } catch (err) {
        failure = failure || err;
      } finally {
        ended = true;
        changed();
      }
    })();
    try {
      for (;;) {
        if (failure) throw failure;
        const i = ordered ? (jobs.length && jobs[0].left === 0 ? 0 : -1) : jobs.findIndex((j) => j.left === 0);
        if (i >= 0) {
          const [job] = jobs.splice(i, 1);
          const out = this._late(job);
          if (out.length) yield new ItemChunk(out);
          continue;
        }
        if (ended && !jobs.length) break;
        await new Promise((r) => { wake = r; });
      }
      await reader;
      if (failure) throw failure;
    } finally {
      stopped = true;
      for (const r of roomWaiters.splice(0)) r();
      this.scan.ms += Date.now() - started;
    }
  }

  // The items of a finished page that are kept: found, and passing --filter.
  _late(job) {
    const out = [];
    const f = this.lateFilter;
    for (let i = 0; i < job.items.length; i++) {
      const item = job.items[i];
      if (item === null) continue;
      if (f) {
        let ok;
        try { ok = f(item); } catch (err) {
          throw new FatalError(`--filter threw for ${JSON.stringify(item.Key)}: ${err && err.message}`);
        }
        if (!ok) continue;
      }
      out.push(item);
    }
    return out;
  }

  // One object's HEAD (pinned to the listed version or ETag) and, when asked and there are
  // any, its tags: the item is replaced by one that carries them (one object of one shape,
  // cheaper than adding fields one by one), or by null when it is left out (named as a problem).
  async _enrich(s3, job, i, limit) {
    const item = job.items[i];
    if (item.DeleteMarker) return; // a delete marker has no object to ask about
    const versioned = item.VersionId !== undefined;
    const signal = this.signal;
    try {
      this.stats.count('HEAD');
      this.scan.heads++;
      const head = await s3.headObject({
        Key: item.Key, VersionId: versioned ? item.VersionId : undefined, IfMatch: versioned ? undefined : item.ETag || undefined, ChecksumMode: 'ENABLED',
      }, signal);
      let tags;
      if (this.withTags) {
        if (head.TagCount > 0) {
          this.stats.count('GET');
          this.scan.tagging++;
          const out = await s3.getObjectTagging({ Key: item.Key, VersionId: versioned ? item.VersionId : undefined }, signal);
          tags = tagsOf(out.TagSet);
        } else tags = {};
      }
      job.items[i] = withMetadata(item, head, tags);
      limit.succeeded();
    } catch (err) {
      if (signal.aborted) throw signal.reason || err;
      const p = problemOf(err);
      this.scan[p.status]++;
      const rec = { key: item.Key, versionId: item.VersionId, ...p };
      if (this.scan.problems.length < 10000) this.scan.problems.push(rec);
      if (this.onProblem) this.onProblem(rec);
      job.items[i] = null;
    }
  }
}

/**
 * What a metadata scan of a source would cost, from its listing alone (no HEADs): objects,
 * HeadObject requests, at most as many GetObjectTagging requests with tags, and the price.
 */
async function estimateScan(options) {
  const listing = new Listing({ ...options, filter: undefined, unordered: true });
  try {
    let objects = 0;
    for await (const chunk of listing.chunks()) {
      // Delete markers have no object to ask about.
      if (!listing.allVersions) objects += chunk.length;
      else for (const it of chunk.toItems()) if (!it.DeleteMarker) objects++;
    }
    const tags = Boolean(options.withTags) || headsFor(options.by).tags;
    const heads = objects;
    const cost = ((heads + (tags ? heads : 0)) * PRICE_PER_1000.HEAD) / 1000;
    const listCost = listing.stats.estimatedCost;
    return {
      objects, headRequests: heads, taggingRequestsAtMost: tags ? heads : 0, listRequests: listing.stats.listRequests,
      estimatedCostUSD: Number(cost.toFixed(6)), listCostUSD: Number(listCost.toFixed(6)), complete: listing.complete,
      note: '--filter runs after the HEADs, so it does not lower this count; --pattern, --prefix and the range do',
    };
  } finally {
    listing.close();
  }
}

module.exports = { ObjectListing, estimateScan, problemOf, headsFor };
