'use strict';
// One multipart upload of bytes that pass through this machine, for upload (parts read from
// a file) and stream-copy (parts read from another bucket). Each part is sent whole with its
// Content-MD5, so S3 checks every part and a failed part can be sent again. Parts in flight
// hold the run's buffer budget (job.memory), so memory does not grow with the object's size.
// A failed upload is aborted, so no parts are left behind to be billed. With a checksum
// algorithm every part carries its checksum too, and the completed object's checksum, had
// from the parts', must be the one the server answers with (write-checksum.js).
const crypto = require('crypto');
const { partRanges } = require('./part-layout');
const { runParts } = require('./parallel-parts');
const { noOverwriteParams } = require('./write-options');
const wc = require('./write-checksum');

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('base64');

/**
 * @param job the transfer job (dst, key, partConcurrency, memory, signal, stats, onCreating, onUpload)
 * @param size object size in bytes
 * @param params CreateMultipartUpload parameters beyond Bucket and Key (headers, ACL, ...)
 * @param partSize bytes per part
 * @param sendPart async ({UploadId, PartNumber, range: [start, end], signal}) => the part's
 *   ETag, or with a checksum algorithm {ETag, checksum (the value sent), answer (the server's
 *   answer, Checksum<algorithm> where it gave one)}
 * @param o {beforeComplete: optional async () => void, last chance to fail (e.g. source
 *   changed); algorithm: the checksum every part sends, or none}
 */
async function multipartUpload(job, size, params, partSize, sendPart, { beforeComplete, algorithm } = {}) {
  const { dst, key, stats, signal } = job;
  const RequestPayer = params.RequestPayer;
  stats.count('POST');
  // Never cut short: an upload the server created but we never heard of would be orphaned.
  if (job.onCreating) await job.onCreating(key);
  const { UploadId } = await dst.createMultipartUpload({ ...params, ...wc.createParams(algorithm), Key: key });
  if (job.onUpload) job.onUpload(key, UploadId);
  try {
    const ranges = partRanges(size, partSize);
    const parts = await runParts(ranges.length, job.partConcurrency, signal, async (i, partSignal) => {
      const range = ranges[i];
      const n = range[1] - range[0] + 1;
      if (job.memory) await job.memory.acquire(n, partSignal);
      try {
        stats.count('PUT');
        const sent = await sendPart({ UploadId, PartNumber: i + 1, range, signal: partSignal });
        stats.bytes += n;
        if (!algorithm) return { PartNumber: i + 1, ETag: sent };
        wc.checkAnswer(algorithm, sent.checksum, sent.answer, null, `part ${i + 1}`);
        return wc.partEntry(i + 1, sent.ETag, algorithm, sent.checksum);
      } finally {
        if (job.memory) job.memory.release(n);
      }
    });
    if (beforeComplete) await beforeComplete();
    const whole = algorithm ? wc.uploadChecksum(algorithm, parts.map((p, i) => ({ checksum: p[wc.field(algorithm)], size: ranges[i][1] - ranges[i][0] + 1 }))) : undefined;
    stats.count('POST');
    const done = await dst.completeMultipartUpload({ Key: key, UploadId, MultipartUpload: { Parts: parts }, RequestPayer, ...noOverwriteParams(job.w), ...wc.completeParams(algorithm, whole) }, signal);
    await wc.confirmCompleted(algorithm, whole, done, { store: dst, key, stats, signal });
    return size;
  } catch (err) {
    // Best effort: its failure is not the object's failure; the journal (onUpload) knows
    // the upload id to retry it.
    await dst.abortUpload({ key, uploadId: UploadId }, stats);
    throw err;
  }
}

module.exports = { multipartUpload, md5 };
