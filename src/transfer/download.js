'use strict';
// S3 -> local file. The body goes to a temporary file in the target folder, renamed onto
// the final name only once complete: an interrupted run never leaves a truncated file
// that a later sync would take for a copy. Bodies are written as they arrive, where the
// request is sent (the store's request thread), so memory stays at a few socket buffers per
// request whatever the object's size. Objects over largeCopyThreshold are fetched as
// parallel ranged GETs, each written to the file at its offset. In a journaled run the temp
// file's folder is in the journal before the file exists: a run killed with it open leaves it
// for the resume to remove (stores/temp-files.js).
//
// Every download is checked against the object's stored full-object checksum where it has
// one: a whole GET (checksum mode on) hashes the bytes as they are written, in the algorithm
// its answer names, and the file gets its name only if they match; a ranged download hashes
// each range as it is written, in the algorithm a HEAD gave, and combines the ranges' values
// (stores/crc-combine.js) into the one the HEAD gave. (Reading ranges back to hash them on the
// main thread was faster while the request thread spent 3 s a GiB on garbage and small
// writes; since sockets read into reused buffers, hashing as received takes 24-31% less CPU
// and is no slower: docs/transfer-benchmark.md.) A mismatch
// fails the object and leaves no file. Objects with no full-object checksum (none stored, or
// a composite one) are counted unchecked (stats.checksumsUnconfirmed).
const fs = require('fs');
const path = require('path');
const { localPath, jobTempPath } = require('../stores/local-paths');
const { choosePartSize, partRanges, TRANSFER_PART } = require('./part-layout');
const { runParts } = require('./parallel-parts');
const { storedChecksums } = require('../stores/stored-checksum');
const { combineParts, canCombine } = require('../stores/crc-combine');
const { ObjectError } = require('../errors');
const { checkReceived } = require('../stores/file-io');

async function download(job) {
  const { item, dst, key } = job;
  const target = localPath(dst.root, key);
  const tmp = await jobTempPath(job, target);
  try {
    // checked: whether the bytes were checked against a stored checksum (mv's proof).
    const { bytes, checked } = item.Size > job.largeCopyThreshold ? await getRanges(job, target, tmp) : await getWhole(job, target, tmp);
    return { status: 'copied', bytes, checked };
  } catch (err) {
    if (err && err.code === 'ChecksumMismatch') throw new ObjectError('failed', `${err.message}: not written`);
    throw err;
  }
}

// Every GET names the listed version (a version listing's, --as-of) and ETag (If-Match): a
// changed object fails with 412, never mixes, and an old version is never read as today's.
function get(job, range, file, signal) {
  const { item, stats } = job;
  stats.count('GET');
  return job.src.getObjectToFile({ Key: item.Key, VersionId: item.VersionId, Range: range, IfMatch: item.ETag || undefined, ChecksumMode: 'ENABLED' }, file, signal);
}

function counted(stats, checked) {
  if (checked) stats.checksumsConfirmed++;
  else stats.checksumsUnconfirmed++;
}

async function getWhole(job, target, tmp) {
  const { item } = job;
  const out = await get(job, undefined, { tmp, final: target, mtime: item.LastModified ? item.LastModified.getTime() : undefined, length: item.Size, checksum: 'stored' }, job.signal);
  counted(job.stats, out.checksum !== undefined);
  job.stats.bytes += out.bytes;
  return { bytes: out.bytes, checked: out.checksum !== undefined };
}

// The stored full-object checksum a ranged download is checked against, where its ranges'
// checksums can be combined into one (a CRC); null where there is none.
async function storedForRanges(job) {
  const { item, stats, signal } = job;
  stats.count('HEAD');
  const head = await job.src.headObject({ Key: item.Key, VersionId: item.VersionId, IfMatch: item.ETag || undefined, ChecksumMode: 'ENABLED' }, signal);
  return storedChecksums(head).find((c) => c.full && canCombine(c.algorithm)) || null;
}

async function getRanges(job, target, tmp) {
  const { item } = job;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await (await fs.promises.open(tmp, 'wx')).close();
  try {
    const want = await storedForRanges(job);
    const ranges = partRanges(item.Size, choosePartSize(item.Size, job.partSize, TRANSFER_PART));
    const sums = await runParts(ranges.length, job.partConcurrency, job.signal, async (i, signal) => {
      const [start, end] = ranges[i];
      const out = await get(job, `bytes=${start}-${end}`, { path: tmp, position: start, length: end - start + 1, checksum: want ? want.algorithm : undefined }, signal);
      job.stats.bytes += out.bytes;
      return { checksum: out.checksum, size: end - start + 1 };
    });
    if (want) checkReceived(want, combineParts(want.algorithm, sums));
    counted(job.stats, Boolean(want));
    if (item.LastModified) await fs.promises.utimes(tmp, new Date(), item.LastModified);
    await fs.promises.rename(tmp, target);
    return { bytes: item.Size, checked: Boolean(want) };
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

module.exports = { download };
