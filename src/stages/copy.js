'use strict';
// cp: every listed object to its target key, as fast as the endpoint allows, with a
// bounded queue between the lister and the copiers, and every object accounted for.
const { Listing } = require('../list/listing');
const { openStore } = require('../stores/open-store');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { createKeyMapper } = require('../transfer/key-map');
const { CollisionDetector } = require('../transfer/collisions');
const { classifyError } = require('../transfer/outcome');
const { Copier, copyOptions, sameConnection } = require('../transfer/copier');
const { UsageError } = require('../errors');
const { runSignal } = require('../signal');
const { describeS3Error } = require('../stores/s3-errors');

// Refuse what S3 would refuse for every object: a copy onto itself that changes nothing.
function checkSelfCopy(srcLoc, dstLoc, mapper, w, options) {
  if (srcLoc.type !== 's3' || dstLoc.type !== 's3' || srcLoc.bucket !== dstLoc.bucket || !sameConnection(options)) return;
  const changes = w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption;
  if (mapper.identity && !changes) {
    throw new UsageError(`copying s3://${srcLoc.bucket}/${srcLoc.prefix} onto itself with the same keys changes nothing (S3 rejects such copies): give another target, a key mapping, or a change such as --storage-class or --metadata-directive REPLACE`);
  }
}

// Source and target stores, key mapper and copier for cp and sync.
function openCopy(options) {
  const stats = options.stats || new RequestStats();
  const signal = runSignal(options.signal);
  const w = normalizeWriteOptions(options);
  const co = copyOptions(options);
  const listing = new Listing({ ...options, stats, signal });
  let dst, dstLoc;
  try {
    ({ store: dst, location: dstLoc } = openStore({ ...options, stats, maxSockets: co.copyConcurrency + co.largeConcurrency * co.partConcurrency }, 'target'));
    const mapper = createKeyMapper({
      sourcePrefix: listing.range.prefix,
      targetPrefix: dstLoc.type === 's3' ? dstLoc.prefix : dstLoc.keyPrefix || '',
      toPrefix: options.toPrefix, addPrefix: options.addPrefix, toKey: options.toKey,
    });
    const copier = new Copier({
      src: listing.store, dst, w, co, sameConnection: sameConnection(options), dryrun: Boolean(options.dryrun),
      signal, stats, onObject: options.onObject, onUpload: options.onUpload,
    });
    return { stats, signal, w, listing, dst, dstLoc, mapper, copier, close() { listing.close(); dst.destroy(); } };
  } catch (err) {
    listing.close();
    if (dst) dst.destroy();
    throw err;
  }
}

/**
 * Copies objects. Options are the CLI's in camelCase: source, target (or bucket / toBucket),
 * range and filter options, toPrefix / addPrefix / toKey, write options, concurrency options,
 * dryrun, plus onObject(outcome), onUpload(uploadId), signal, progress, log.
 */
async function copy(options = {}) {
  const run = openCopy(options);
  const { listing, dst, dstLoc, mapper, copier, stats } = run;
  let collisions = 0;
  try {
    checkSelfCopy(listing.location, dstLoc, mapper, run.w, options);
    const detector = mapper.injective ? null : new CollisionDetector();
    await dst.open({ create: true });
    listing.progress.extra = () => `${copier.tallies.copied.objects.toLocaleString('en-US')} copied${copier.tallies.failed.objects ? `, ${copier.tallies.failed.objects} failed` : ''}`;
    try {
      for await (const page of listing.pages()) {
        for (const item of page) {
          let targetKey;
          try {
            targetKey = mapper.map(item.Key);
          } catch (err) {
            copier.record(item, null, classifyError(err));
            continue;
          }
          if (detector && detector.add(targetKey)) {
            collisions++;
            copier.record(item, targetKey, { status: 'failed', reason: `collision: an earlier source key also maps to ${JSON.stringify(targetKey)}` });
            continue;
          }
          await copier.add(item, targetKey);
        }
      }
    } finally {
      await copier.drain().catch(() => {});
    }
    await copier.drain();
  } catch (err) {
    throw describeS3Error(err, { bucket: dst.bucket });
  } finally {
    run.close();
  }
  return {
    source: listing.location.text, target: dstLoc.text || options.toBucket, dryrun: Boolean(options.dryrun), complete: listing.complete,
    ...copier.result(), collisions, ok: copier.ok, stats: stats.toJSON(),
  };
}

module.exports = { copy, openCopy, checkSelfCopy };
