'use strict';
// S3 -> local file. The body goes to a temporary file in the target folder, renamed onto
// the final name only once complete: an interrupted run never leaves a truncated file
// that a later sync would take for a copy. Bodies are written as they arrive, where the
// request is sent (the store's request thread), so memory stays at a few socket buffers per
// request whatever the object's size. Objects over largeCopyThreshold are fetched as
// parallel ranged GETs, each written to the file at its offset. In a journaled run the temp
// file's folder is in the journal before the file exists: a run killed with it open leaves it
// for the resume to remove (stores/temp-files.js).
const fs = require('fs');
const path = require('path');
const { localPath, jobTempPath } = require('../stores/local-paths');
const { choosePartSize, partRanges, TRANSFER_PART } = require('./part-layout');
const { runParts } = require('./parallel-parts');

async function download(job) {
  const { item, dst, key } = job;
  const target = localPath(dst.root, key);
  const tmp = await jobTempPath(job, target);
  const bytes = item.Size > job.largeCopyThreshold ? await getRanges(job, target, tmp) : await getWhole(job, target, tmp);
  return { status: 'copied', bytes };
}

// Every GET names the listed version (a version listing's, --as-of) and ETag (If-Match): a
// changed object fails with 412, never mixes, and an old version is never read as today's.
function get(job, range, file, signal) {
  const { item, stats } = job;
  stats.count('GET');
  return job.src.getObjectToFile({ Key: item.Key, VersionId: item.VersionId, Range: range, IfMatch: item.ETag || undefined }, file, signal);
}

async function getWhole(job, target, tmp) {
  const { item } = job;
  const out = await get(job, undefined, { tmp, final: target, mtime: item.LastModified ? item.LastModified.getTime() : undefined, length: item.Size }, job.signal);
  job.stats.bytes += out.bytes;
  return out.bytes;
}

async function getRanges(job, target, tmp) {
  const { item } = job;
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  await (await fs.promises.open(tmp, 'wx')).close();
  try {
    const ranges = partRanges(item.Size, choosePartSize(item.Size, job.partSize, TRANSFER_PART));
    await runParts(ranges.length, job.partConcurrency, job.signal, async (i, signal) => {
      const [start, end] = ranges[i];
      const out = await get(job, `bytes=${start}-${end}`, { path: tmp, position: start, length: end - start + 1 }, signal);
      job.stats.bytes += out.bytes;
    });
    if (item.LastModified) await fs.promises.utimes(tmp, new Date(), item.LastModified);
    await fs.promises.rename(tmp, target);
    return item.Size;
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

module.exports = { download };
