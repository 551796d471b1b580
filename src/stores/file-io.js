'use strict';
// Request bodies read from local files and answers written to them, for the lean path's
// uploads and downloads. Both run where the request is sent (usually the request thread),
// with synchronous calls: a few microseconds each on a local disk, where a promise-based
// call costs the main thread more than the work. A body is read once: its MD5 is taken from
// the same buffer that is sent.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { promisify } = require('util');
const { bufferChecksum, newChecksum, checksumHeader, canCompute } = require('./content-checksum');
const { fullChecksumOfHeaders } = require('./stored-checksum');
const { signLater } = require('./sigv4');
const { headerMap } = require('./http-pool');

class FileChanged extends Error {}

/**
 * Bytes [position, position + length) of a file, with their MD5 (base64; none with noMd5). length undefined:
 * the whole file (at most maxLength bytes). A file whose size or modification time changes
 * while it is read, or differs from expect {size, mtimeMs} (the version a multipart upload's
 * other parts come from), or that is shorter than the range, throws FileChanged: its object
 * would mix two versions.
 */
function readFilePart(spec, alloc = (n) => Buffer.allocUnsafeSlow(n)) {
  const { path: file, position = 0, length, expect, maxLength } = spec;
  const fd = fs.openSync(file, 'r');
  try {
    const before = fs.fstatSync(fd);
    if (expect && (before.size !== expect.size || before.mtimeMs !== expect.mtimeMs)) throw new FileChanged('changed while it was being uploaded');
    const n = length === undefined ? before.size - position : length;
    if (maxLength !== undefined && n > maxLength) throw new FileChanged(`grew to ${before.size} bytes since it was listed`);
    // allocUnsafeSlow (the default): a buffer of its own, which can move to another thread without a copy.
    const body = alloc(n);
    for (let done = 0; done < n;) {
      const got = fs.readSync(fd, body, done, n - done, position + done);
      if (got === 0) throw new FileChanged('got shorter while it was being read');
      done += got;
    }
    const after = fs.fstatSync(fd);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) throw new FileChanged('changed while it was being read');
    // noMd5: the body goes with a checksum the server is known to check (upload.js).
    return { body, md5: spec.noMd5 ? undefined : crypto.createHash('md5').update(body).digest('base64'), size: before.size };
  } finally {
    fs.closeSync(fd);
  }
}

// Creating a file costs the kernel far more than writing it (half a millisecond of CPU on
// some file systems): it runs on libuv's thread pool, not on the thread that reads sockets.
// A raw descriptor (closed here with closeSync), not a FileHandle that closes itself when collected.
const openFd = promisify(fs.open);
async function createExclusive(file) {
  try {
    return await openFd(file, 'wx');
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return openFd(file, 'wx');
  }
}

const HOLD_MAX = 1 << 20; // a whole body up to this size is written once, when complete

/**
 * Where a download's bytes go: spec {path, position} writes into an existing file at an offset
 * (a range of a large object; the file is opened here, so a request cut short elsewhere never
 * writes through a descriptor that was closed and reused); spec {tmp, final, mtime} creates
 * tmp (and its folder), writes the whole body, and on finish sets its modification time and
 * renames it to final, so no half-written file ever has the final name. length: the bytes
 * expected. Resolves to {sink, finish(bytes), abort()}; sink and finish are synchronous.
 */
async function openFileSink(spec) {
  const whole = spec.tmp !== undefined;
  const fd = whole ? await createExclusive(spec.tmp) : fs.openSync(spec.path, 'r+');
  const base = spec.position || 0;
  // A small whole body is held and written in one call; larger ones as they arrive.
  const held = whole && spec.length !== undefined && spec.length <= HOLD_MAX ? [] : null;
  let open = true;
  const close = () => { if (open) { open = false; fs.closeSync(fd); } };
  const write = (chunk, at) => {
    for (let done = 0; done < chunk.length;) done += fs.writeSync(fd, chunk, done, chunk.length - done, at + done);
  };
  return {
    sink(chunk, offset) {
      if (held && offset + chunk.length <= HOLD_MAX) held.push(Buffer.from(chunk)); // socket chunks are reused
      else {
        if (held && held.length) { write(Buffer.concat(held.splice(0)), base); }
        write(chunk, base + offset);
      }
    },
    finish(bytes) {
      if (spec.length !== undefined && bytes !== spec.length) throw new Error(`GET returned ${bytes} bytes where ${spec.length} were expected`);
      if (held && held.length) write(held.length === 1 ? held[0] : Buffer.concat(held), base);
      if (whole && spec.mtime !== undefined) fs.futimesSync(fd, new Date(), new Date(spec.mtime));
      close();
      if (whole) fs.renameSync(spec.tmp, spec.final);
    },
    abort() {
      try { close(); } catch { /* already closed */ }
      if (whole) { try { fs.unlinkSync(spec.tmp); } catch { /* never created, or gone */ } }
    },
  };
}

// Bodies of parts, kept for the next part of the same size once their request is over: a
// fresh buffer per part is garbage that a thread collects only some 64 MB later, and holds
// memory until it does. One pool per process, on the main thread: the request thread reads
// a part into a buffer lent from it (request-thread.js) and hands it back with the answer,
// and a part that falls back to the SDK takes its body from the same pool, so the buffers a
// run holds are those its buffer budget lets be in flight at once, whichever path sends
// them. Only one size is kept, the largest seen (an upload's full parts): last parts of
// other sizes would fill the pool with buffers no part fits. At most SPARE_BYTES kept;
// bodies under SPARE_MIN are left to the collector.
const SPARE_MIN = 1 << 20, SPARE_BYTES = 256 << 20;
const spare = { size: 0, free: [] };
/** A buffer of n bytes: a kept one where one fits, else a fresh one that owns its memory. */
function takeBody(n) {
  if (n === spare.size && spare.free.length) return spare.free.pop();
  return Buffer.allocUnsafeSlow(n);
}
/** A body whose request is over, kept for a later part; whether it was kept. */
function giveBack(body) {
  if (body.length < SPARE_MIN || body.length < spare.size) return false;
  if (body.length > spare.size) spare.free = [], spare.size = body.length;
  if ((spare.free.length + 1) * spare.size > SPARE_BYTES) return false;
  spare.free.push(body);
  return true;
}
/** Whether a body of n bytes is worth lending from the pool (it will be kept on return). */
const lendable = (n) => n >= SPARE_MIN && n >= spare.size;
/** The bytes the pool holds (for tests). */
const spareBytes = () => spare.size * spare.free.length;

/**
 * Sends a request on an HttpPool, with its body read from a file (request.file.read: the
 * spec of readFilePart; Content-MD5 and Content-Length are set here, unsigned) or its answer
 * written to one (request.file.write: the spec of fileSink). Resolves as HttpPool#fetch
 * does, with bytes: the body's length either way. A read spec with checksum (an algorithm)
 * and sign (Signer#sign's deferred, the request's signature left out) sends the body's
 * checksum in its x-amz-checksum-* header, which must be signed, and signs the request
 * here; the answer's checksum is that value.
 */
async function fetchWithFile(pool, request, track) {
  const { file } = request;
  if (file && file.read) {
    const spec = file.read;
    // A body lent by the main thread (spec.into, its exact size) goes back there with the answer.
    const lent = spec.into ? Buffer.from(spec.into.buffer, spec.into.byteOffset, spec.into.byteLength) : null;
    const { body, md5 } = readFilePart(spec, (n) => (lent && n === lent.length ? lent : takeBody(n)));
    // Once the request is over (answered, or its socket destroyed), nothing reads the body.
    let res, checksum, recycled;
    try {
      let headers = { ...request.options.headers, 'content-length': String(body.length) };
      if (md5) headers['content-md5'] = md5;
      if (spec.checksum) {
        checksum = await bufferChecksum(body, spec.checksum);
        headers = { ...headers, ...signLater(spec.sign, { [checksumHeader(spec.checksum)]: checksum }, spec.anonymous) };
      }
      res = await pool.fetch({ ...request, file: undefined, body, options: { ...request.options, headers } }, track);
    } finally {
      recycled = body === lent || giveBack(body);
    }
    return { ...res, bytes: body.length, checksum, recycled };
  }
  if (file && file.write) {
    const out = await openFileSink(file.write);
    const check = file.write.checksum ? receivedChecksum(file.write.checksum, out.sink) : null;
    try {
      const res = await pool.fetch({ ...request, file: undefined, sink: check ? check.sink : out.sink }, check ? check.track(track) : track);
      const checksum = check ? await check.verify() : undefined;
      out.finish(res.bytes);
      return { ...res, checksum };
    } catch (err) {
      out.abort();
      throw err;
    }
  }
  return pool.fetch(request, track);
}

class ChecksumMismatch extends Error {
  constructor(message) { super(message); this.code = 'ChecksumMismatch'; }
}

/** Throws ChecksumMismatch where bytes received (value, base64) are not the stored ones. */
function checkReceived(stored, value) {
  if (stored && value !== stored.value) throw new ChecksumMismatch(`the bytes received have ${stored.algorithm} ${value} where the object's stored checksum is ${stored.value}`);
}

/**
 * The checksum of a GET's body, taken as it goes to the file. how: 'stored' (a whole object:
 * the answer's own full-object checksum, whichever algorithm it is in, is checked before the
 * file gets its name) or an algorithm (a range: its checksum is handed back, for the caller to
 * combine with the other ranges'). verify() resolves to the value computed (base64), or
 * undefined where the answer had no checksum to check against; a different value throws
 * ChecksumMismatch.
 */
function receivedChecksum(how, sink) {
  let call = null, hash, stored = null;
  const start = () => {
    if (how !== 'stored') hash = newChecksum(how);
    else {
      let c = call;
      while (c && c.retry) c = c.retry; // sent again on a fresh socket: its answer is the one
      stored = c && c.headText ? fullChecksumOfHeaders(headerMap(c.headText)) : null;
      hash = stored && canCompute(stored.algorithm) ? newChecksum(stored.algorithm) : null;
    }
  };
  return {
    track: (track) => (c) => { call = c; if (track) track(c); },
    sink(chunk, offset) {
      if (hash === undefined) start();
      if (hash) hash.update(chunk);
      sink(chunk, offset);
    },
    async verify() {
      if (hash === undefined) start(); // an empty body
      if (!hash) return undefined;
      const value = (await hash.digest()).toString('base64');
      checkReceived(stored, value);
      return value;
    },
  };
}

module.exports = { readFilePart, openFileSink, fetchWithFile, FileChanged, ChecksumMismatch, checkReceived, takeBody, giveBack, lendable, spareBytes };
