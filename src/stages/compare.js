'use strict';
// compare: one merge-join of two sorted listings. Every source key, mapped to its target
// key, and every target key falls in exactly one class, in this precedence:
// only-source, only-target, size-differs, content-differs, older, unknown, same.
const crypto = require('crypto');
const pLimit = require('p-limit');
const { ObjectListing: Listing } = require('./object-listing');
const { openListing } = require('./source-listing');
const { RequestStats } = require('../stats');
const { createKeyMapper } = require('../transfer/key-map');
const { multipartCount } = require('../transfer/part-layout');
const { compareKeys } = require('../keys/order');
const { ExternalSorter, Spool } = require('../util/spool');
const { runSignal } = require('../signal');
const { Tally } = require('../transfer/copier');
const { UsageError, FatalError } = require('../errors');
const { showKey } = require('../list/untrusted-store');
const { describeS3Error, httpStatus } = require('../stores/s3-errors');
const { NO_PART_HEAD } = require('../transfer/server-copy');
const { folderPaths } = require('./paths');
const { targetConnection } = require('../stores/open-store');
const { DifferenceFolders } = require('./difference-folders');
const { checksumVerdict, storedChecksums } = require('../stores/stored-checksum');
const { option } = require('../options');
const { streamChecksum, bufferChecksum, canCompute } = require('../stores/content-checksum');

const CLASSES = ['only-source', 'only-target', 'size-differs', 'content-differs', 'older', 'unknown', 'same'];
const DIFFERENT = new Set(['only-source', 'only-target', 'size-differs', 'content-differs', 'older']);

function parseShow(show) {
  if (show === undefined || show === null) return [];
  const kinds = (Array.isArray(show) ? show : String(show).split(',')).map((k) => k.trim()).filter(Boolean);
  for (const k of kinds) if (k !== 'all' && !CLASSES.includes(k)) throw new UsageError(`--show must be one of ${CLASSES.join(', ')} or all, not ${JSON.stringify(k)}`);
  return kinds.includes('all') ? CLASSES : kinds;
}

// What the two ETags say about content: 'same', 'differs', 'parts' (same part count:
// comparable only if the part sizes match) or 'unknown'.
function etagVerdict(a, b, ignoreEtags) {
  if (!a || !b || ignoreEtags) return 'unknown';
  if (a === b) return 'same';
  const ma = multipartCount(a), mb = multipartCount(b);
  if (!ma && !mb) return 'differs';
  if (ma && ma === mb) return 'parts';
  return 'unknown';
}

async function* itemsOf(listing) {
  for await (const page of listing.pages()) yield* page;
}

// The target-side range matching the source range under an order-preserving mapping.
function targetRange(listing, mapper) {
  const { prefix, after, stop } = listing.range;
  const out = { prefix: mapper.mapPrefix(prefix), empty: listing.range.empty };
  if (after) {
    if (after.startsWith(prefix)) out.startAfter = mapper.mapPrefix(after);
    else if (compareKeys(after, prefix) > 0) out.empty = true;
  }
  if (stop !== null) {
    if (stop.startsWith(prefix)) out.stopAt = mapper.mapPrefix(stop);
    else if (compareKeys(stop, prefix) < 0) out.empty = true;
  }
  return out;
}

// A merge of two listings is right only if both are strictly increasing in S3's order: a key
// out of place would be taken for one that exists on one side only (and a sync would copy,
// then delete it). So each side is checked as it is consumed; deletes come after the merge.
function inOrder(next, keyOf, side) {
  let prev = null;
  return async () => {
    const r = await next();
    if (r.done) return r;
    const key = keyOf(r.value);
    if (prev !== null && compareKeys(prev, key) >= 0) {
      throw new FatalError(`${side} listed ${showKey(key)} after ${showKey(prev)}, not in S3's UTF-8 key order: stopped before acting on the comparison (nothing was deleted)`);
    }
    prev = key;
    return r;
  };
}

async function* mergeJoin(srcPairs, dstItems, sides = ['the source', 'the target']) {
  const si = srcPairs[Symbol.asyncIterator](), di = dstItems[Symbol.asyncIterator]();
  const nextS = inOrder(() => si.next(), (v) => v.targetKey, sides[0]), nextD = inOrder(() => di.next(), (v) => v.Key, sides[1]);
  let s = await nextS(), d = await nextD();
  while (!s.done || !d.done) {
    const c = s.done ? 1 : d.done ? -1 : compareKeys(s.value.targetKey, d.value.Key);
    if (c < 0) { yield { src: s.value.item, targetKey: s.value.targetKey, dst: null }; s = await nextS(); }
    else if (c > 0) { yield { src: null, targetKey: d.value.Key, dst: d.value }; d = await nextD(); }
    else { yield { src: s.value.item, targetKey: s.value.targetKey, dst: d.value }; s = await nextS(); d = await nextD(); }
  }
}

class Comparison {
  constructor(options) {
    this.options = options;
    this.stats = options.stats || new RequestStats();
    this.signal = runSignal(options.signal);
    if (options.allVersions) throw new UsageError('compare and sync take --as-of, not --all-versions (cp --all-versions copies every version)');
    const paths = options.paths || folderPaths(options);
    // sourceSockets / targetSockets: a sync's copies, besides the list requests, and the
    // checks' HEADs (one per side per pair checked). The stores are the comparison's
    // (srcStore, dstStore: a sync copies through them).
    const heads = options.checksum ? headsPerSide(options) : 0;
    const src = openListing(Listing, { ...options, sourceLocation: paths.source, stats: this.stats, signal: this.signal, sockets: Math.max(options.sourceSockets || 0, heads) || undefined });
    this.srcListing = src.listing;
    this.srcStore = src.store;
    this.closers = [src.close];
    try {
      const dstLoc = paths.target;
      // --as-of reads the source as it was; the target is compared as it is now.
      const tgt = { ...targetConnection(options), source: undefined, bucket: undefined, prefix: undefined, pathFilters: undefined,
        stats: this.stats, signal: this.signal, progress: this.srcListing.progress.forOtherSide(), startAfter: undefined, stopAt: undefined, targetSide: true,
        sockets: Math.max(options.targetSockets || 0, heads) || undefined, asOf: undefined, allVersions: undefined, versionId: undefined };
      this.mapper = createKeyMapper({
        sourcePrefix: paths.source.base ?? this.srcListing.range.prefix,
        targetPrefix: dstLoc.prefix,
        toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey, single: paths.single,
      });
      // The target side is kept to what the source side selects (wildcards, --include /
      // --exclude), so a sync never deletes what the source side left out.
      const select = this.srcListing.select, unmap = this.mapper.unmapPrefix;
      const selectKey = select && unmap ? (key) => select(unmap(key)) : undefined;
      let dstOptions;
      if (this.mapper.single) {
        this.method = 'merge';
        const key = paths.single.targetKey;
        dstOptions = { ...tgt, sourceLocation: { ...dstLoc, prefix: key, base: '', single: key } };
        this.empty = this.srcListing.range.empty;
      } else if (this.mapper.orderPreserving) {
        const r = targetRange(this.srcListing, this.mapper);
        this.method = 'merge';
        dstOptions = { ...tgt, sourceLocation: { ...dstLoc, prefix: r.prefix }, startAfter: r.startAfter, stopAt: r.stopAt, selectKey };
        this.empty = r.empty;
      } else {
        this.method = 'sorted-spool';
        dstOptions = { ...tgt, sourceLocation: dstLoc };
        this.empty = this.srcListing.range.empty;
      }
      const dst = openListing(Listing, dstOptions);
      this.dstListing = dst.listing;
      this.dstStore = dst.store;
      this.closers.push(dst.close);
    } catch (err) {
      this.close();
      throw err;
    }
    this.tallies = Object.fromEntries(CLASSES.map((c) => [c, new Tally()]));
    this.failures = [];
    // With a local side there are no comparable ETags: size and modification time decide,
    // as aws s3 sync does (a side older than the other is `older`), unless --checksum reads
    // the bytes. Pairs judged so are counted: their content was not checked.
    // A directory bucket's ETags are random strings, not digests of content: pairs with one
    // there are judged as with a local side (stored checksums under --checksum).
    const o = options;
    this.localSide = this.srcStore.type === 'local' || this.dstStore.type === 'local';
    this.noEtags = this.localSide || Boolean(this.srcStore.directoryBucket || this.dstStore.directoryBucket);
    this.timeCompared = Boolean(o.compareTime) || (this.noEtags && !o.checksum && !o.sizeOnly);
    this.judgedBySize = 0;
    // How each pair on both sides was judged ('size', 'size+time', 'etag', 'checksum
    // CRC64NVME', 'part sizes', 'read'): counts, for the report.
    this.judgedBy = {};
  }

  // Pairs checked at once: a check of stored checksums is a HEAD per S3 side (and, against
  // a folder, the file hashed), so as many as --head-concurrency allows; one that may read
  // both objects (--checksum=download) CHECKS_READING.
  get checksAtOnce() {
    const o = this.options;
    return o.checksum && o.checksum !== 'download' ? headsPerSide(o) : CHECKS_READING;
  }

  _judged(how, cls) {
    this.judgedBy[how] = (this.judgedBy[how] || 0) + 1;
    return cls;
  }

  get methodNote() {
    return this.method === 'merge'
      ? 'merge-join of the two listings in S3 key order (the key mapping preserves order)'
      : '--to-key may not preserve key order: mapped source keys were sorted on disk and merged with the full target listing';
  }

  // Pairs of (source item, target item) in target-key order.
  async *pairs() {
    if (this.empty) return;
    await Promise.all([this.srcStore.open(), this.dstStore.open()]);
    const mapper = this.mapper;
    const failures = this.failures;
    const mapped = async function* (items) {
      for await (const item of items) {
        let targetKey;
        try { targetKey = mapper.map(item.Key); } catch (err) { failures.push({ key: item.Key, reason: err.message }); continue; }
        yield { item, targetKey };
      }
    };
    let src = mapped(itemsOf(this.srcListing));
    let sorter = null;
    if (this.method === 'sorted-spool') {
      sorter = new ExternalSorter((r) => r.targetKey);
      for await (const r of src) sorter.push(r);
      src = (async function* () {
        for await (const r of sorter.sorted()) yield { targetKey: r.targetKey, item: { ...r.item, LastModified: r.item.LastModified ? new Date(r.item.LastModified) : null } };
      })();
    }
    try {
      yield* mergeJoin(src, itemsOf(this.dstListing), [`the source (${this.srcListing.location.text})`, `the target (${this.dstListing.location.text})`]);
    } finally {
      if (sorter) sorter.remove();
    }
  }

  // The class of a pair; where only requests can tell, a function that makes them and
  // resolves to the class (so the caller decides when they start).
  classify({ src, dst }) {
    if (!dst) return 'only-source';
    if (!src) return 'only-target';
    if (src.Size !== dst.Size) return this._judged('size', 'size-differs');
    const o = this.options;
    if (this.noEtags && !o.checksum) {
      this.judgedBySize++;
      return this._judged('size+time', this.timeCompared && olderSecond(dst.LastModified, src.LastModified) ? 'older' : 'same');
    }
    const v = etagVerdict(src.ETag, dst.ETag, o.ignoreEtags || this.noEtags);
    const older = o.compareTime && dst.LastModified && src.LastModified && +dst.LastModified < +src.LastModified;
    const settle = (c) => (c === 'content-differs' ? c : older ? 'older' : c);
    // Between buckets, --checksum asks the stored checksums first: ETags that differ may
    // still be the same bytes (SSE-KMS, directory buckets, another part layout).
    const stored = o.checksum && !this.localSide;
    if (v === 'differs') return stored ? () => this._checkContent(src, dst, v).then(settle) : this._judged('etag', 'content-differs');
    if (v === 'same') return this._judged('etag', older ? 'older' : 'same');
    if (v === 'parts' || o.checksum) return () => this._checkContent(src, dst, v).then(settle);
    return older ? 'older' : 'unknown';
  }

  async _checkContent(src, dst, verdict) {
    const { srcStore, dstStore } = this;
    const etags = !this.options.ignoreEtags;
    if (this.localSide && this.options.checksum) {
      // A small file against a single-part object: the file's MD5 against the object's MD5
      // ETag settles a match with no request. Another value (or an ETag that is no MD5:
      // SSE-KMS) is left to the stored checksum below.
      const [file, object] = srcStore.type === 'local' ? [[srcStore, src], dst] : [[dstStore, dst], src];
      if (file[1].Size <= READ_WHOLE && md5Etag(object, etags) && await contentMd5(file[0], file[1], this) === object.ETag.replace(/"/g, '')) return this._judged('read', 'same');
    }
    if (this.options.checksum) {
      const [a, b] = await Promise.all([storedChecksumHead(srcStore, src, this), storedChecksumHead(dstStore, dst, this)]);
      const by = a && b ? checksumVerdict(a, b) : this.localSide && (a || b) ? await this._fileChecksum(a ? [dstStore, dst] : [srcStore, src], a || b) : null;
      if (by) return this._judged(by.how, by.same ? 'same' : 'content-differs');
      if (verdict === 'differs') return this._judged('etag', 'content-differs');
    }
    if (verdict === 'parts') {
      // Same part count: comparable only if the first parts are the same size too, and
      // then only where the target was not written after the source: a server that makes
      // multipart ETags its own way (SeaweedFS) gives a layout-keeping copy another ETag.
      const [a, b] = await Promise.all([firstPartSize(srcStore, src, this), firstPartSize(dstStore, dst, this)]);
      const copiedAfter = dst.LastModified && src.LastModified && +dst.LastModified >= +src.LastModified;
      if (a !== null && a === b && !copiedAfter) return this._judged('part sizes', 'content-differs');
      if (!this.options.checksum) return 'unknown';
    }
    // Reading an object's bytes (a download) only where asked for: --checksum=download.
    if (this.options.checksum !== 'download' && (readsObject(srcStore, src, etags) || readsObject(dstStore, dst, etags))) return 'unknown';
    const [ha, hb] = await Promise.all([contentMd5(srcStore, src, this, etags), contentMd5(dstStore, dst, this, etags)]);
    return this._judged('read', ha === hb ? 'same' : 'content-differs');
  }

  // A file against an object's stored full-object checksum: the file's bytes hashed in the
  // object's algorithm, the object's never read.
  async _fileChecksum([store, item], head) {
    const stored = storedChecksums(head).find((c) => c.full && canCompute(c.algorithm));
    if (!stored) return null;
    const value = item.Size <= READ_WHOLE && store.readSmall
      ? await bufferChecksum(store.readSmall(item), stored.algorithm)
      : await streamChecksum(await store.readStream(item, this.signal), stored.algorithm);
    return { same: value === stored.value, how: `checksum ${stored.algorithm}` };
  }

  close() {
    for (const close of this.closers) close();
  }
}

// Whether a was modified in an earlier second than b. S3 keeps whole seconds, file systems
// finer: a download takes its object's second, so it is never older than its object.
function olderSecond(a, b) {
  if (!a || !b) return false;
  return Math.floor(+new Date(a) / 1000) < Math.floor(+new Date(b) / 1000);
}

// A HEAD of a listed object for a content check, counted; null where the server cannot
// answer it (see NO_PART_HEAD): the check then goes on without it.
async function checkHead(store, params, cmp) {
  cmp.stats.count('HEAD');
  try {
    return await store.headObject(params, cmp.signal);
  } catch (err) {
    if (NO_PART_HEAD.has(httpStatus(err))) return null;
    throw err;
  }
}

// null where the server cannot say: the pair is then unknown.
async function firstPartSize(store, item, cmp) {
  const h = await checkHead(store, { Key: item.Key, VersionId: item.VersionId, PartNumber: 1, IfMatch: item.ETag }, cmp);
  return h ? h.ContentLength ?? null : null;
}

// A HEAD with checksum mode on, for the object as listed (its version, else its ETag); null
// for a side that is no S3 object (a folder) or that the server cannot HEAD so.
function storedChecksumHead(store, item, cmp) {
  if (store.type === 'local' || typeof store.headObject !== 'function') return null;
  return checkHead(store, { Key: item.Key, VersionId: item.VersionId, IfMatch: item.VersionId ? undefined : item.ETag || undefined, ChecksumMode: 'ENABLED' }, cmp);
}

// A single-part ETag is the MD5 of the bytes, unless --ignore-etags says this server's are not.
const md5Etag = (item, etags) => etags && item.ETag && !multipartCount(item.ETag);

// Whether contentMd5 would read an object from S3 (a file is read from the local disk).
const readsObject = (store, item, etags) => store.type !== 'local' && !md5Etag(item, etags);

// MD5 of an object's bytes: a single-part S3 ETag is one already; otherwise read them.
async function contentMd5(store, item, cmp, etags = true) {
  if (md5Etag(item, etags)) return item.ETag.replace(/"/g, '');
  if (item.Size <= READ_WHOLE && store.readSmall) return crypto.createHash('md5').update(store.readSmall(item)).digest('hex');
  const hash = crypto.createHash('md5');
  for await (const chunk of await store.readStream(item, cmp.signal)) hash.update(chunk);
  return hash.digest('hex');
}

// Files up to this size are hashed from one synchronous read (LocalStore#readSmall), larger
// ones streamed: a short block of the event loop against a stream's per-file overhead.
const READ_WHOLE = 1024 * 1024;
// Checks in flight at once that may read objects (a GET per side): enough to keep the
// sockets busy, few enough that their buffers stay small.
const CHECKS_READING = 64;
// HEADs in flight per side while checking stored checksums: half of --head-concurrency,
// which counts both sides' requests.
const headsPerSide = (options) => Math.max(1, Math.ceil(option(options, 'headConcurrency') / 2));
// Pairs waiting for a check before the merge pauses.
const CHECKS_WAITING = 1000;

// Runs pairs through classify with bounded concurrency for the ones that need requests,
// calling onPair(pair, cls) for each.
async function classifyAll(cmp, onPair, { onSeen, stopSignal } = {}) {
  const limit = pLimit(cmp.checksAtOnce);
  let pending = 0, waiter = null, failure = null;
  for await (const pair of cmp.pairs()) {
    if (failure) break;
    if (stopSignal && stopSignal.aborted) { cmp.interrupted = true; break; }
    if (onSeen && onSeen(pair) === false) continue;
    const cls = cmp.classify(pair);
    if (typeof cls === 'string') { await onPair(pair, cls); continue; }
    pending++;
    limit(cls).then((c) => onPair(pair, c), (err) => { failure = failure || err; })
      .finally(() => { pending--; if (waiter) { waiter(); waiter = null; } });
    while (pending > CHECKS_WAITING) await new Promise((r) => { waiter = r; });
  }
  while (pending > 0) await new Promise((r) => { waiter = r; });
  if (failure) throw failure;
}

// The classes per top-level folder below each side's prefix (see difference-folders.js).
function differenceFolders(cmp) {
  return new DifferenceFolders(CLASSES, { source: cmp.srcListing.range.prefix, target: cmp.dstListing.range.prefix, different: DIFFERENT });
}

function addToFolders(folders, pair, cls) {
  if (pair.src) folders.add(cls, pair.src.Key, 'source', pair.src.Size);
  else folders.add(cls, pair.dst.Key, 'target', pair.dst.Size);
}

/**
 * Compares a source with a target. Options: source, target (or bucket / toBucket), range
 * and filter options, toPrefix / addPrefix / toKey, compareTime, checksum, ignoreEtags,
 * show (classes whose keys to keep), onPair({class, key, targetKey, source, target}).
 */
async function compare(options = {}) {
  const show = parseShow(options.show);
  const cmp = new Comparison(options);
  const spools = Object.fromEntries(show.map((k) => [k, new Spool()]));
  const folders = differenceFolders(cmp);
  try {
    await classifyAll(cmp, (pair, cls) => {
      cmp.tallies[cls].add((pair.src || pair.dst).Size);
      addToFolders(folders, pair, cls);
      const rec = { class: cls, key: pair.src ? pair.src.Key : null, targetKey: pair.targetKey, source: pair.src, target: pair.dst };
      if (spools[cls]) spools[cls].push(rec);
      if (options.onPair) options.onPair(rec);
    });
  } catch (err) {
    for (const s of Object.values(spools)) s.remove();
    throw describeS3Error(err);
  } finally {
    cmp.close();
  }
  for (const s of Object.values(spools)) s.close();
  const classes = Object.fromEntries(CLASSES.map((c) => [c, cmp.tallies[c].toJSON()]));
  const identical = CLASSES.every((c) => !DIFFERENT.has(c) || classes[c].objects === 0) && cmp.failures.length === 0;
  // Pairs whose content nothing checked: unknown ones, and those judged by size and time.
  const judgedBySize = cmp.judgedBySize + classes.unknown.objects;
  return {
    source: cmp.srcListing.location.text,
    target: cmp.dstListing.location.text,
    method: cmp.method,
    methodNote: cmp.methodNote,
    classes,
    identical,
    folders: folders.toJSON(),
    judgedBySize,
    judgedBy: cmp.judgedBy,
    verified: identical && judgedBySize === 0,
    unmappable: cmp.failures,
    complete: cmp.srcListing.complete && cmp.dstListing.complete,
    stats: cmp.stats.toJSON(),
    // Keys of the classes asked for with `show`, read back from disk.
    keys(kind) {
      const s = spools[kind];
      if (!s) throw new UsageError(`keys of ${kind} were not kept: pass show: ['${kind}']`);
      return s.read();
    },
    dispose() { for (const s of Object.values(spools)) s.remove(); },
  };
}

module.exports = { compare, Comparison, classifyAll, CLASSES, DIFFERENT, etagVerdict, mergeJoin, parseShow, differenceFolders, addToFolders };
