'use strict';
// Every request is counted: by type, with retries, throttles and bytes. List efficiency
// is unique keys returned per 1000-key list request.

// USD per 1000 requests, S3 Standard in us-east-1 (list/put/copy class vs get/head class).
const PRICE_PER_1000 = { LIST: 0.005, PUT: 0.005, COPY: 0.005, POST: 0.005, GET: 0.0004, HEAD: 0.0004, DELETE: 0 };

class RequestStats {
  constructor() {
    this.listRequests = 0;
    this.folderListings = 0; // list requests with a delimiter, part of listRequests
    this.pages = 0;
    this.checkedPages = 0; // pages of two or more keys: the ones whose order says something
    this.threadRequests = 0; // list pages and copies sent (and pages parsed) on the request thread
    this.requestThreads = 0; // request threads started (the most of any one store)
    this.keysReturned = 0;
    this.keysUnique = 0;
    this.overlap = 0;
    this.emptyTruncated = 0;
    this.splits = 0;
    this.hedges = 0; // list requests sent a second time because the first took far too long
    this.hints = 0; // split points the listing started with (split-hints.js)
    this.budgetHeld = 0; // times the request budget left free slots unused (parallel-lister.js)
    this.probesSkipped = 0; // other runs' probe objects a listing left out (list/listing.js)
    // Objects written with a checksum whose stored value the server's answer confirmed, and
    // those whose answer carried none (transfer/write-checksum.js).
    this.checksumsConfirmed = 0;
    this.checksumsUnconfirmed = 0;
    // List requests in flight, integrated over time: meanInflight is the time-weighted mean.
    this.inflightNow = 0;
    this.maxInflight = 0;
    this.inflightArea = 0;
    this.inflightFrom = null;
    this.inflightAt = 0;
    this.listRechecks = 0; // two pages disagreed about the same keys and were asked again
    this.listChanges = 0; // ... and then agreed: the bucket changed while it was listed
    this.fallback = null;
    this.versions = 0; // versions and delete markers handed out by a version listing
    this.versionFollowUps = 0; // list requests that finished a key's versions (part of listRequests)
    // List requests by what they were for (the first request of a segment a cut, a scout, a
    // folder or a hint began; a segment's next request; folder listings; checks), each with
    // the keys its pages returned and the new ones among them: where requests go to waste.
    this.listKinds = {};
    this.requests = {}; // type -> count, for everything but LIST
    this.retries = 0;
    this.throttles = 0;
    this.expiredSessions = 0; // directory-bucket requests answered ExpiredToken (sent again with a new session)
    this.bytes = 0;
  }

  listKind(kind, returned = 0, unique = 0) {
    const k = this.listKinds[kind] || (this.listKinds[kind] = { requests: 0, keys: 0, unique: 0 });
    k.requests++;
    k.keys += returned;
    k.unique += unique;
  }

  count(type, n = 1) {
    this.requests[type] = (this.requests[type] || 0) + n;
  }

  // A list request started (+1) or ended (-1) at time now (ms).
  listInflight(delta, now) {
    if (this.inflightFrom === null) { this.inflightFrom = now; this.inflightAt = now; }
    this.inflightArea += this.inflightNow * (now - this.inflightAt);
    this.inflightAt = now;
    this.inflightNow += delta;
    if (this.inflightNow > this.maxInflight) this.maxInflight = this.inflightNow;
  }

  get meanInflight() {
    const span = this.inflightAt - (this.inflightFrom ?? 0);
    return span > 0 ? this.inflightArea / span : this.maxInflight;
  }

  // Entries per list request's 1000: keys, or versions where versions were listed.
  get efficiency() {
    return this.listRequests ? (this.versions || this.keysUnique) / (this.listRequests * 1000) : null;
  }

  // Keys parsed per key handed out: what overlapping pages cost in client CPU (1 when no
  // page was read twice). Efficiency is what they cost in requests (dollars).
  get parsedPerUnique() {
    return this.keysUnique ? this.keysReturned / this.keysUnique : null;
  }

  get estimatedCost() {
    let usd = (this.listRequests * PRICE_PER_1000.LIST) / 1000;
    for (const [type, n] of Object.entries(this.requests)) usd += ((PRICE_PER_1000[type] ?? 0.005) * n) / 1000;
    return usd;
  }

  toJSON() {
    return {
      listRequests: this.listRequests,
      folderListings: this.folderListings,
      pages: this.pages,
      threadRequests: this.threadRequests,
      requestThreads: this.requestThreads,
      keysReturned: this.keysReturned,
      keysUnique: this.keysUnique,
      overlap: this.overlap,
      efficiency: this.efficiency === null ? null : Number(this.efficiency.toFixed(4)),
      parsedPerUnique: this.parsedPerUnique === null ? null : Number(this.parsedPerUnique.toFixed(4)),
      splits: this.splits,
      hedges: this.hedges,
      hints: this.hints,
      budgetHeld: this.budgetHeld,
      ...(this.probesSkipped ? { probesSkipped: this.probesSkipped } : {}),
      ...(this.checksumsConfirmed || this.checksumsUnconfirmed ? { checksumsConfirmed: this.checksumsConfirmed, checksumsUnconfirmed: this.checksumsUnconfirmed } : {}),
      meanInflight: Number(this.meanInflight.toFixed(1)),
      maxInflight: this.maxInflight,
      listRechecks: this.listRechecks,
      listChanges: this.listChanges,
      fallback: this.fallback,
      ...(Object.keys(this.listKinds).length ? { listKinds: this.listKinds } : {}),
      ...(this.versions || this.versionFollowUps ? { versions: this.versions, versionFollowUps: this.versionFollowUps } : {}),
      requests: { LIST: this.listRequests, ...this.requests },
      retries: this.retries,
      throttles: this.throttles,
      ...(this.expiredSessions ? { expiredSessions: this.expiredSessions } : {}),
      bytes: this.bytes,
      estimatedCostUSD: Number(this.estimatedCost.toFixed(6)),
    };
  }
}

module.exports = { RequestStats, PRICE_PER_1000 };
