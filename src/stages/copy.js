'use strict';
// cp: every listed object to its target key, as fast as the endpoint allows, with a
// bounded queue between the lister and the copiers, and every object accounted for.
const pLimit = require('p-limit');
const { Listing, positiveInt } = require('../list/listing');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { createKeyMapper } = require('../transfer/key-map');
const { CollisionDetector } = require('../transfer/collisions');
const { classifyError, isFatalForRun } = require('../transfer/outcome');
const { parseSize, MiB, MIN_PART, MAX_PART } = require('../transfer/part-layout');
const { pickTransfer } = require('../transfer');
const { UsageError } = require('../errors');
const { HeadObjectCommand } = require('@aws-sdk/client-s3');
const { runSignal } = require('../signal');
const { describeS3Error } = require('../stores/s3-errors');

// Objects above this go part by part. See the README: on the endpoints we measured, one
// CopyObject is as fast as a multipart copy up to about this size, and a multipart copy
// costs at least three more requests (create, complete, and a HEAD for the headers).
const DEFAULT_LARGE_THRESHOLD = 64 * MiB;
const MAX_NAMED = 10000; // failures kept in the result; every one also goes to onObject

class Tally {
  constructor() { this.objects = 0; this.bytes = 0; }
  add(bytes) { this.objects++; this.bytes += bytes || 0; }
}

function copyOptions(options) {
  const o = {
    copyConcurrency: positiveInt(options.copyConcurrency, '--copy-concurrency') || 500,
    largeConcurrency: positiveInt(options.largeCopyConcurrency, '--large-copy-concurrency') || 75,
    partConcurrency: positiveInt(options.partConcurrency, '--part-concurrency') || 8,
    maxQueue: positiveInt(options.maxQueueSize, '--max-queue-size') || 10000,
    largeThreshold: parseSize(options.largeCopyThreshold, '--large-copy-threshold'),
    partSize: parseSize(options.partSize, '--part-size'),
  };
  if (o.largeThreshold === undefined) o.largeThreshold = DEFAULT_LARGE_THRESHOLD;
  if (o.partSize !== undefined && (o.partSize < MIN_PART || o.partSize > MAX_PART)) throw new UsageError('--part-size must be between 5MiB and 5GiB');
  return o;
}

function sameConnection(options) {
  return !options.toEndpointUrl && !options.toProfile && !options.toCredentials;
}

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (srcLoc.type !== 's3' || dstLoc.type !== 's3' || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options)) return;
  const changes = w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption;
  if (mapper.identity && !changes) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

/**
 * Copies objects. Options are the CLI's in camelCase: source, target (or bucket / toBucket),
 * range and filter options, toPrefix / addPrefix / toKey, write options, concurrency options,
 * dryrun, plus onObject(outcome), signal, progress, log.
 */
async function copy(options = {}) {
  const stats = options.stats || new RequestStats();
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  const signal = runSignal(options.signal);
  const listing = new Listing({ ...options, stats, signal });
  const { store: dst, location: dstLoc } = openStore({ ...options, stats, maxSockets: co.copyConcurrency + co.largeConcurrency * co.partConcurrency }, 'target');
  const result = {
    source: listing.location.text,
    target: dstLoc.text || options.toBucket,
    dryrun: Boolean(options.dryrun),
    copied: new Tally(), planned: new Tally(), failed: new Tally(), skipped: new Tally(), vanished: new Tally(), changed: new Tally(),
    collisions: 0,
    failures: [], // {key, targetKey, status, reason}, first MAX_NAMED
  };
  try {
    const mapper = createKeyMapper({
      sourcePrefix: listing.range.prefix,
      targetPrefix: dstLoc.type === 's3' ? dstLoc.prefix : '',
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey,
    });
    checkSelfCopy(listing.location, dstLoc, mapper, w, options);
    const collisions = mapper.injective ? null : new CollisionDetector();
    const transfer = pickTransfer(listing.store, dst, sameConnection(options));
    await dst.open({ create: true });
    const small = pLimit(co.copyConcurrency);
    const large = pLimit(co.largeConcurrency);
    let queued = 0;
    let fatal = null;
    let wake = null;
    const progress = listing.progress;
    progress.extra = () => `${result.copied.objects.toLocaleString('en-US')} copied${result.failed.objects ? `, ${result.failed.objects} failed` : ''}`;

    const record = (item, targetKey, outcome) => {
      const tally = result[outcome.status] || result.failed;
      tally.add(outcome.bytes !== undefined ? outcome.bytes : item.Size);
      if (outcome.status !== 'copied' && outcome.status !== 'planned') {
        if (result.failures.length < MAX_NAMED) result.failures.push({ key: item.Key, targetKey, status: outcome.status, reason: outcome.reason });
      }
      if (options.onObject) options.onObject({ key: item.Key, targetKey, size: item.Size, ...outcome });
    };

    const runOne = async (item, targetKey) => {
      const job = { item, src: listing.store, dst, key: targetKey, w, partSize: co.partSize, partConcurrency: co.partConcurrency, largeThreshold: co.largeThreshold, signal, stats, onUpload: options.onUpload };
      for (let attempt = 0; ; attempt++) {
        try {
          return await transfer(job);
        } catch (err) {
          const outcome = classifyError(err, { bucket: dst.bucket, key: targetKey });
          if (isFatalForRun(err)) throw err;
          // Changed since listed: copy the new version once, never a mix of the two.
          if (outcome.status === 'changed' && attempt === 0 && listing.store.type === 's3') {
            const fresh = await currentVersion(listing.store, item, stats, signal);
            if (fresh) { job.item = fresh; continue; }
            return { status: 'vanished', reason: 'deleted since it was listed' };
          }
          return outcome;
        }
      }
    };

    const schedule = (item, targetKey) => {
      queued++;
      const pool = item.Size > co.largeThreshold ? large : small;
      pool(() => (fatal || (signal && signal.aborted) ? null : runOne(item, targetKey)))
        .then((outcome) => { if (outcome) record(item, targetKey, outcome); }, (err) => { fatal = fatal || err; })
        .finally(() => { queued--; if (wake) wake(); });
    };

    const waitFor = async (cond) => { while (!cond()) await new Promise((r) => { wake = r; }); wake = null; };

    const feed = async () => {
      for await (const page of listing.pages()) {
        for (const item of page) {
          if (fatal) break;
          let targetKey;
          try {
            targetKey = mapper.map(item.Key);
          } catch (err) {
            record(item, null, classifyError(err));
            continue;
          }
          if (collisions && collisions.add(targetKey)) {
            result.collisions++;
            record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` });
            continue;
          }
          if (result.dryrun) { record(item, targetKey, { status: 'planned' }); continue; }
          await waitFor(() => queued < co.maxQueue || fatal);
          schedule(item, targetKey);
        }
        if (fatal) break;
      }
    };

    try {
      await feed();
    } catch (err) {
      fatal = fatal || err;
    }
    await waitFor(() => queued === 0);
    if (fatal) throw describeS3Error(fatal, { bucket: dst.bucket });
    result.complete = listing.complete;
  } finally {
    listing.close();
    dst.destroy();
  }
  result.stats = stats.toJSON();
  return finalize(result);
}

async function currentVersion(store, item, stats, signal) {
  try {
    stats.count('HEAD');
    const head = await store.client.send(new HeadObjectCommand({ Bucket: store.bucket, Key: item.Key, RequestPayer: store.requestPayer }), { abortSignal: signal });
    return { ...item, Size: head.ContentLength, ETag: head.ETag, LastModified: head.LastModified, StorageClass: head.StorageClass || item.StorageClass };
  } catch (err) {
    if (classifyError(err).status === 'vanished') return null;
    throw err;
  }
}

function finalize(r) {
  const plain = (t) => ({ objects: t.objects, bytes: t.bytes });
  const out = {
    source: r.source, target: r.target, dryrun: r.dryrun, complete: Boolean(r.complete),
    copied: plain(r.copied), failed: plain(r.failed), skipped: plain(r.skipped), vanished: plain(r.vanished), changed: plain(r.changed),
    collisions: r.collisions, failures: r.failures, stats: r.stats,
  };
  if (r.dryrun) out.planned = plain(r.planned);
  // Changed objects were neither copied nor safely skipped: they fail the run like failures.
  out.ok = r.failed.objects === 0 && r.changed.objects === 0;
  return out;
}

module.exports = { copy, DEFAULT_LARGE_THRESHOLD };
