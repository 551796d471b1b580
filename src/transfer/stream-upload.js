'use strict';
// A stream of unknown length (stdin) -> one S3 object. Bytes are cut into parts as they
// come; a stream that ends within the first part is one PutObject, anything longer a
// multipart upload whose parts go up `partConcurrency` at once. Memory stays within
// (partConcurrency + 1) parts whatever the length; every part carries its MD5 and checksum
// (w.checksumAlgorithm), the completed object's checksum is confirmed (write-checksum.js); a
// failed or cancelled upload is aborted, so no part is left behind.
const { md5 } = require('./multipart-upload');
const wc = require('./write-checksum');
const { bufferChecksum } = require('../stores/content-checksum');
const { mergedHeaders, commonWriteParams, noOverwriteParams } = require('./write-options');
const { contentTypeFor } = require('./upload');
const { MiB, MAX_PARTS } = require('./part-layout');
const { FatalError, SafetyError } = require('../errors');

const STREAM_PART = 8 * MiB; // at 10,000 parts: objects up to 78 GiB (--part-size for more)

/**
 * @param o {store (S3Store), key, stream, w (write options), partSize, partConcurrency, signal, stats,
 *   guard (a WriteGuard with --no-overwrite: which request types honour If-None-Match)}
 * @returns {bytes, parts, etag}
 */
async function uploadStream({ store, key, stream, w = {}, partSize = STREAM_PART, partConcurrency = 4, signal, stats, guard }) {
  const params = { ...mergedHeaders(null, w), ContentType: w.ContentType || contentTypeFor(key), ...commonWriteParams(w), Tagging: w.Tagging };
  const algorithm = w.checksumAlgorithm || undefined;
  const checksumOf = async (body) => (algorithm ? bufferChecksum(body, algorithm) : undefined);
  const sent = (value) => wc.sentChecksum(algorithm, value);
  const parts = partsOf(stream, partSize);
  let first = await parts.next();
  const second = first.done ? first : await parts.next();
  // With --no-overwrite, one PutObject only where the server honours If-None-Match on it, else
  // a multipart upload completed with it; a stream that neither can take is refused unwritten.
  const single = second.done && (!guard || await guard.ok('put'));
  if (single) {
    const body = first.done ? Buffer.alloc(0) : first.value;
    const checksum = await checksumOf(body);
    if (stats) stats.count('PUT');
    const out = await store.putObject({ ...params, ...noOverwriteParams(w), ...sent(checksum), Key: key, Body: body, ContentLength: body.length, ContentMD5: md5(body) }, signal);
    wc.checkAnswer(algorithm, checksum, out, stats, 'PutObject');
    return { bytes: body.length, parts: 0, etag: out && out.ETag };
  }
  if (guard && !(await guard.ok('complete'))) {
    throw new SafetyError(second.done
      ? 'the server does not honour If-None-Match on PutObject or CompleteMultipartUpload: --no-overwrite cannot keep the target safe there, nothing was written'
      : `the server ignores If-None-Match on CompleteMultipartUpload: a stream longer than one part (--part-size ${partSize} bytes) cannot be written with --no-overwrite; nothing was written`);
  }
  if (first.done) first = { done: false, value: Buffer.alloc(0) }; // an empty stream as one empty part
  if (stats) stats.count('POST');
  const { UploadId } = await store.createMultipartUpload({ ...params, ...wc.createParams(algorithm), Key: key }, signal);
  const done = [];
  let bytes = 0, n = 0, failure = null;
  const inflight = new Set();
  const send = (body, PartNumber) => {
    const p = (async () => {
      const checksum = await checksumOf(body);
      if (stats) stats.count('PUT');
      const out = await store.uploadPart({ Key: key, UploadId, PartNumber, Body: body, ContentLength: body.length, ContentMD5: md5(body), ...sent(checksum) }, signal);
      wc.checkAnswer(algorithm, checksum, out, null, `part ${PartNumber}`);
      done.push({ ...wc.partEntry(PartNumber, out.ETag, algorithm, checksum), size: body.length });
    })().catch((err) => { failure = failure || err; }).finally(() => inflight.delete(p));
    inflight.add(p);
  };
  try {
    let r = first;
    for (;;) {
      if (r.done) break;
      if (++n > MAX_PARTS) throw new FatalError(`the stream is longer than ${MAX_PARTS} parts of ${partSize} bytes: give a larger --part-size`);
      bytes += r.value.length;
      send(r.value, n);
      r = n === 1 ? second : await parts.next();
      while (inflight.size >= partConcurrency && !failure) await Promise.race(inflight);
      if (failure) throw failure;
    }
    await Promise.all(inflight);
    if (failure) throw failure;
    done.sort((a, b) => a.PartNumber - b.PartNumber);
    const whole = algorithm ? wc.uploadChecksum(algorithm, done.map((p) => ({ checksum: p[wc.field(algorithm)], size: p.size }))) : undefined;
    const listed = done.map(({ size, ...part }) => part);
    if (stats) stats.count('POST');
    const out = await store.completeMultipartUpload({ Key: key, UploadId, MultipartUpload: { Parts: listed }, ...noOverwriteParams(w), ...wc.completeParams(algorithm, whole) }, signal);
    await wc.confirmCompleted(algorithm, whole, out, { store, key, stats, signal });
    return { bytes, parts: n, etag: out && out.ETag };
  } catch (err) {
    await Promise.allSettled(inflight);
    await store.abortUpload({ key, uploadId: UploadId }, stats);
    throw err;
  }
}

// The stream as Buffers of exactly `size` bytes (the last one shorter).
async function* partsOf(stream, size) {
  let held = [], heldBytes = 0;
  for await (let chunk of stream) {
    if (!Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk);
    while (chunk.length) {
      const take = Math.min(size - heldBytes, chunk.length);
      held.push(take === chunk.length ? chunk : chunk.subarray(0, take));
      heldBytes += take;
      chunk = chunk.subarray(take);
      if (heldBytes === size) {
        yield Buffer.concat(held, heldBytes);
        held = []; heldBytes = 0;
      }
    }
  }
  if (heldBytes) yield Buffer.concat(held, heldBytes);
}

module.exports = { uploadStream, partsOf, STREAM_PART };
