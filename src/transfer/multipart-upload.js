'use strict';
// One multipart upload of bytes that pass through this machine, for upload (parts read from
// a file) and stream-copy (parts read from another bucket). Each part is sent whole with its
// Content-MD5, so S3 checks every part and a failed part can be sent again. Parts in flight
// hold the run's buffer budget (job.memory), so memory does not grow with the object's size.
// A failed upload is aborted, so no parts are left behind to be billed.
const crypto = require('crypto');
const { partRanges } = require('./part-layout');
const { runParts } = require('./parallel-parts');
const { noOverwriteParams } = require('./write-options');

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('base64');

/**
 * @param job the transfer job (dst, key, partConcurrency, memory, signal, stats, onCreating, onUpload)
 * @param size object size in bytes
 * @param params CreateMultipartUpload parameters beyond Bucket and Key (headers, ACL, ...)
 * @param partSize bytes per part
 * @param sendPart async ({UploadId, PartNumber, range: [start, end], signal}) => ETag of the part
 * @param beforeComplete optional async () => void, last chance to fail (e.g. source changed)
 */
async function multipartUpload(job, size, params, partSize, sendPart, beforeComplete) {
  const { dst, key, stats, signal } = job;
  const RequestPayer = params.RequestPayer;
  stats.count('POST');
  // Never cut short: an upload the server created but we never heard of would be orphaned.
  if (job.onCreating) await job.onCreating(key);
  const { UploadId } = await dst.createMultipartUpload({ ...params, Key: key });
  if (job.onUpload) job.onUpload(key, UploadId);
  try {
    const ranges = partRanges(size, partSize);
    const parts = await runParts(ranges.length, job.partConcurrency, signal, async (i, partSignal) => {
      const range = ranges[i];
      const n = range[1] - range[0] + 1;
      if (job.memory) await job.memory.acquire(n, partSignal);
      try {
        stats.count('PUT');
        const ETag = await sendPart({ UploadId, PartNumber: i + 1, range, signal: partSignal });
        stats.bytes += n;
        return { PartNumber: i + 1, ETag };
      } finally {
        if (job.memory) job.memory.release(n);
      }
    });
    if (beforeComplete) await beforeComplete();
    stats.count('POST');
    await dst.completeMultipartUpload({ Key: key, UploadId, MultipartUpload: { Parts: parts }, RequestPayer, ...noOverwriteParams(job.w) }, signal);
    return size;
  } catch (err) {
    // Best effort: its failure is not the object's failure; the journal (onUpload) knows
    // the upload id to retry it.
    await dst.abortUpload({ key, uploadId: UploadId }, stats);
    throw err;
  }
}

module.exports = { multipartUpload, md5 };
