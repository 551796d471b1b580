'use strict';
// One multipart upload, for upload (parts read from a file) and stream-copy (parts read
// from another bucket). Each part is a Buffer sent with its Content-MD5: the SDK can
// retry a Buffer (never a stream it has half consumed) and S3 checks every part. Memory
// is partConcurrency x partSize per object. A failed upload is aborted, so no parts are
// left behind to be billed.
const crypto = require('crypto');
const { choosePartSize, partRanges } = require('./part-layout');
const { runParts } = require('./parallel-parts');

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('base64');

/**
 * @param job the transfer job (dst, key, partSize, partConcurrency, signal, stats, onUpload)
 * @param size object size in bytes
 * @param params CreateMultipartUpload parameters beyond Bucket and Key (headers, ACL, ...)
 * @param readPart async ([start, end], partIndex, signal) => Buffer of exactly that range
 * @param beforeComplete optional async () => void, last chance to fail (e.g. source changed)
 */
async function multipartUpload(job, size, params, readPart, beforeComplete) {
  const { dst, key, stats, signal } = job;
  const RequestPayer = params.RequestPayer;
  stats.count('POST');
  // Never cut short: an upload the server created but we never heard of would be orphaned.
  if (job.onCreating) await job.onCreating(key);
  const { UploadId } = await dst.createMultipartUpload({ ...params, Key: key });
  if (job.onUpload) job.onUpload(key, UploadId);
  try {
    const ranges = partRanges(size, choosePartSize(size, job.partSize));
    const parts = await runParts(ranges.length, job.partConcurrency, signal, async (i, partSignal) => {
      const body = await readPart(ranges[i], i, partSignal);
      stats.count('PUT');
      const out = await dst.uploadPart({
        Key: key, UploadId, PartNumber: i + 1, Body: body, ContentLength: body.length, ContentMD5: md5(body), RequestPayer,
      }, partSignal);
      stats.bytes += body.length;
      return { PartNumber: i + 1, ETag: out.ETag };
    });
    if (beforeComplete) await beforeComplete();
    stats.count('POST');
    await dst.completeMultipartUpload({ Key: key, UploadId, MultipartUpload: { Parts: parts }, RequestPayer }, signal);
    return size;
  } catch (err) {
    // Best effort: its failure is not the object's failure; the journal (onUpload) knows
    // the upload id to retry it.
    await dst.abortUpload({ key, uploadId: UploadId }, stats);
    throw err;
  }
}

module.exports = { multipartUpload, md5 };
