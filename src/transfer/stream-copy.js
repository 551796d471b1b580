'use strict';
// S3 -> S3 through this process, for when one CopyObject cannot reach (another endpoint
// or account). The object keeps its content headers, metadata and tags; the user's write
// options win. Small objects: the GetObject body streams straight into PutObject, never
// buffered (so the SDK cannot retry that PUT: a failure fails the object). Larger ones: a
// multipart upload whose parts are ranged GETs, each buffered so a failed UploadPart can
// be retried: the parts in flight share the run's buffer budget (multipart-upload.js).
// Checksums: a small object's PUT carries the source's stored full-object checksum (the GET
// asked for it, and the SDK checks the body against it as it streams), so the target checks
// the bytes it receives against the source's own value and its answer confirms it; parts
// carry their checksum in --checksum-algorithm (write-checksum.js).
const { addAbortSignal } = require('stream');
const { mergedHeaders, commonWriteParams, keptStorageClass, noOverwriteParams } = require('./write-options');
const { choosePartSize, TRANSFER_PART } = require('./part-layout');
const { multipartUpload, md5 } = require('./multipart-upload');
const { getSource, consumeBody } = require('./source-get');
const wc = require('./write-checksum');
const { storedChecksums } = require('../stores/stored-checksum');
const { bufferChecksum } = require('../stores/content-checksum');
const { takeBody, giveBack } = require('../stores/file-io');

async function streamCopy(job) {
  // split ('whole' or 'parts'): how --no-overwrite's request type wants it (no-overwrite.js).
  const parts = job.split ? job.split === 'parts' : job.item.Size > job.largeCopyThreshold;
  const bytes = parts ? await copyParts(job) : await copyWhole(job);
  return { status: 'copied', bytes };
}

// What the new object carries, from a GetObject response (of any range of the source).
async function writeParams(job, out) {
  const { w, item } = job;
  return {
    ...mergedHeaders(out, w),
    ...commonWriteParams(w, keptStorageClass(item, job.src, job.dst)),
    Tagging: w.Tagging !== undefined ? w.Tagging : await sourceTagging(job, out.TagCount),
  };
}

// The source's tags as a Tagging parameter. GetObject says how many tags there are, which
// spares the usual untagged object a request.
async function sourceTagging(job, tagCount) {
  if (!tagCount) return undefined;
  const { item, src, stats, signal } = job;
  stats.count('GET');
  const out = await src.getObjectTagging({ Key: item.Key, VersionId: item.VersionId }, signal);
  return (out.TagSet || []).map((t) => `${encodeURIComponent(t.Key)}=${encodeURIComponent(t.Value)}`).join('&');
}

async function copyWhole(job) {
  // One controller for both requests: if the source body fails half way, the PUT it feeds
  // must fail too rather than wait for bytes that will never come.
  const ac = new AbortController();
  const onAbort = () => ac.abort(job.signal.reason);
  if (job.signal) job.signal.addEventListener('abort', onAbort, { once: true });
  let body;
  try {
    const out = await getSource(job, undefined, ac.signal);
    body = addAbortSignal(ac.signal, out.Body);
    body.once('error', (err) => ac.abort(err));
    const params = await writeParams(job, out);
    // --checksum-algorithm none: no checksum header at all (a target that rejects them).
    const stored = job.w.checksumAlgorithm ? storedChecksums(out).find((c) => c.full) : null;
    const sum = stored ? wc.sentChecksum(stored.algorithm, stored.value) : {};
    job.stats.count('PUT');
    const put = await job.dst.putObject({ ...params, ...noOverwriteParams(job.w), ...sum, Key: job.key, Body: body, ContentLength: out.ContentLength }, ac.signal);
    if (stored) wc.checkAnswer(stored.algorithm, stored.value, put, job.stats, 'PutObject');
    else if (job.w.checksumAlgorithm) job.stats.checksumsUnconfirmed++;
    job.stats.bytes += out.ContentLength;
    return out.ContentLength;
  } catch (err) {
    // The PUT may fail without reading the body (refused after Expect: 100-continue).
    if (body) body.destroy();
    throw err;
  } finally {
    if (job.signal) job.signal.removeEventListener('abort', onAbort);
  }
}

async function copyParts(job) {
  const { item } = job;
  const partSize = choosePartSize(item.Size, job.partSize, TRANSFER_PART);
  // The first part's response also carries the headers and tag count the upload is
  // created with; its bytes are kept for part 1 rather than fetched twice.
  const firstLength = Math.min(item.Size, partSize);
  const firstOut = await getSource(job, `bytes=0-${firstLength - 1}`, job.signal);
  let first = await readRange(firstOut, firstLength, job.signal);
  const params = await writeParams(job, firstOut);
  const algorithm = job.w.checksumAlgorithm || undefined;
  return multipartUpload(job, item.Size, params, partSize, async ({ UploadId, PartNumber, range: [start, end], signal }) => {
    let body = first;
    first = null;
    if (PartNumber !== 1) body = await readRange(await getSource(job, `bytes=${start}-${end}`, signal), end - start + 1, signal);
    try {
      const checksum = algorithm ? await bufferChecksum(body, algorithm) : undefined;
      const out = await job.dst.uploadPart({ Key: job.key, UploadId, PartNumber, Body: body, ContentLength: body.length, ContentMD5: md5(body), RequestPayer: job.w.RequestPayer, ...wc.sentChecksum(algorithm, checksum) }, signal);
      return algorithm ? { ETag: out.ETag, checksum, answer: out } : out.ETag;
    } finally {
      giveBack(body); // the request is over: the next part's GET fills it
    }
  }, { algorithm });
}

// A part's bytes, in a buffer of the pool uploads' parts share (file-io.js takeBody).
async function readRange(out, length, signal) {
  const buf = takeBody(length);
  await consumeBody(out, length, signal, (chunk, offset) => { chunk.copy(buf, offset); });
  return buf;
}

module.exports = { streamCopy };
