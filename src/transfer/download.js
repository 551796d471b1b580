'use strict';
// S3 -> local file. The body goes to a temporary file in the target folder, renamed onto
// the final name only once complete: an interrupted run never leaves a truncated file
// that a later sync would take for a copy. Objects over largeCopyThreshold are fetched as
// parallel ranged GETs, each streamed to the file at its offset, so memory stays at a
// few socket buffers per part whatever the object's size.
const fs = require('fs');
const path = require('path');
const { localPath, tempPathFor } = require('../stores/local-paths');
const { choosePartSize, partRanges } = require('./part-layout');
const { runParts } = require('./parallel-parts');
const { getSource, consumeBody } = require('./source-get');

async function download(job) {
  const { item, dst, key } = job;
  const target = localPath(dst.root, key);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const tmp = tempPathFor(target);
  const fh = await fs.promises.open(tmp, 'wx');
  let open = true;
  try {
    const bytes = item.Size > job.largeCopyThreshold ? await getRanges(job, fh) : await getWhole(job, fh);
    if (item.LastModified) await fh.utimes(new Date(), item.LastModified);
    if (job.fsync) await fh.sync();
    open = false;
    await fh.close();
    await fs.promises.rename(tmp, target);
    return { status: 'copied', bytes };
  } catch (err) {
    if (open) await fh.close().catch(() => {});
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}

async function getWhole(job, fh) {
  const out = await getSource(job, undefined, job.signal);
  await writeAt(job, fh, out, 0, out.ContentLength, job.signal);
  return out.ContentLength;
}

async function getRanges(job, fh) {
  const { item } = job;
  const ranges = partRanges(item.Size, choosePartSize(item.Size, job.partSize));
  await runParts(ranges.length, job.partConcurrency, job.signal, async (i, signal) => {
    const [start, end] = ranges[i];
    const out = await getSource(job, `bytes=${start}-${end}`, signal);
    await writeAt(job, fh, out, start, end - start + 1, signal);
  });
  return item.Size;
}

function writeAt(job, fh, out, position, length, signal) {
  return consumeBody(out, length, signal, async (chunk, offset) => {
    await fh.write(chunk, 0, chunk.length, position + offset);
    job.stats.bytes += chunk.length;
  });
}

module.exports = { download };
