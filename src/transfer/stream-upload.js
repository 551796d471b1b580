'use strict';
// A stream of unknown length (stdin) -> one S3 object. Bytes are cut into parts as they
// come; a stream that ends within the first part is one PutObject, anything longer a
// multipart upload whose parts go up `partConcurrency` at once. Memory stays within
// (partConcurrency + 1) parts whatever the length; every part carries its MD5; a failed or
// cancelled upload is aborted, so no part is left behind.
const { md5 } = require('./multipart-upload');
const { mergedHeaders, commonWriteParams } = require('./write-options');
const { contentTypeFor } = require('./upload');
const { MiB, MAX_PARTS } = require('./part-layout');
const { FatalError } = require('../errors');

const STREAM_PART = 8 * MiB; // at 10,000 parts: objects up to 78 GiB (--part-size for more)

/**
 * @param o {store (S3Store), key, stream, w (write options), partSize, partConcurrency, signal, stats}
 * @returns {bytes, parts, etag}
 */
async function uploadStream({ store, key, stream, w = {}, partSize = STREAM_PART, partConcurrency = 4, signal, stats }) {
  const params = { ...mergedHeaders(null, w), ContentType: w.ContentType || contentTypeFor(key), ...commonWriteParams(w), Tagging: w.Tagging };
  const parts = partsOf(stream, partSize);
  const first = await parts.next();
  const second = first.done ? first : await parts.next();
  if (second.done) {
    const body = first.done ? Buffer.alloc(0) : first.value;
    if (stats) stats.count('PUT');
    const out = await store.putObject({ ...params, Key: key, Body: body, ContentLength: body.length, ContentMD5: md5(body) }, signal);
    return { bytes: body.length, parts: 0, etag: out && out.ETag };
  }
  if (stats) stats.count('POST');
  const { UploadId } = await store.createMultipartUpload({ ...params, Key: key }, signal);
  const done = [];
  let bytes = 0, n = 0, failure = null;
  const inflight = new Set();
  const send = (body, PartNumber) => {
    const p = (async () => {
      if (stats) stats.count('PUT');
      const out = await store.uploadPart({ Key: key, UploadId, PartNumber, Body: body, ContentLength: body.length, ContentMD5: md5(body) }, signal);
      done.push({ PartNumber, ETag: out.ETag });
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
    if (stats) stats.count('POST');
    const out = await store.completeMultipartUpload({ Key: key, UploadId, MultipartUpload: { Parts: done } }, signal);
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
