'use strict';
// GETs of the listed source object, shared by download and stream-copy. If-Match pins
// every request (and every range of a multipart read) to the version that was listed:
// a changed object fails with 412 instead of mixing two versions.
const { addAbortSignal } = require('stream');

// A whole GET asks for the stored checksum too (checksum mode): the SDK then checks the body
// against a full-object one as it is read, and stream-copy hands it on to the target.
function getSource(job, range, signal) {
  const { item, src, stats } = job;
  stats.count('GET');
  return src.getObject({ Key: item.Key, VersionId: item.VersionId, Range: range, IfMatch: item.ETag || undefined, ChecksumMode: range === undefined ? 'ENABLED' : undefined }, signal);
}

// Feeds a GetObject body to `onChunk(chunk, offset)` one chunk at a time (awaiting it, so
// a slow sink holds the socket back instead of piling up memory) and checks the body is
// exactly `length` bytes. The body is destroyed on any failure or abort.
async function consumeBody(out, length, signal, onChunk) {
  const body = signal ? addAbortSignal(signal, out.Body) : out.Body;
  if (out.ContentLength !== length) {
    body.destroy();
    throw new Error(`GET returned ${out.ContentLength} bytes where ${length} were expected`);
  }
  let offset = 0;
  for await (const chunk of body) {
    if (offset + chunk.length > length) throw new Error(`body longer than its ${length} bytes`);
    await onChunk(chunk, offset);
    offset += chunk.length;
  }
  if (offset !== length) throw new Error(`body ended after ${offset} of ${length} bytes`);
}

module.exports = { getSource, consumeBody };
