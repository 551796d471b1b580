'use strict';
// One object or one bucket at a time: cat (an object's bytes, or a range of them), head
// (HeadObject as JSON), putStream (a stream of unknown length to an object: cp - s3://b/k),
// mb and rb (rb --force empties the bucket first with rm and its safety rules).
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { describeS3Error, errorCode, httpStatus } = require('../stores/s3-errors');
const { RequestStats } = require('../stats');
const { normalizeWriteOptions } = require('../transfer/write-options');
const { uploadStream, STREAM_PART } = require('../transfer/stream-upload');
const { option } = require('../options');
const { UsageError, FatalError, S3BlitzError } = require('../errors');
const { rm } = require('./remove');
const { WriteGuard } = require('../transfer/no-overwrite');
const { parseAsOf } = require('../list/versions');
const { findVersionAt, noObjectAt } = require('../list/version-at');

// The one object an s3:// path names (no wildcard, not a folder).
function objectAt(options, what, role = 'source') {
  const loc = role === 'source'
    ? resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source')
    : resolveLocation({ location: options.target, bucket: options.toBucket }, 'target');
  const text = loc.text;
  if (loc.type !== 's3') throw new UsageError(`${what} needs an s3:// path to an object, not ${JSON.stringify(text)}`);
  if (loc.glob) throw new UsageError(`${what} takes one object, not a wildcard: ${JSON.stringify(text)}`);
  if (!loc.prefix || loc.prefix.endsWith('/')) throw new UsageError(`${what} needs an object's key: ${JSON.stringify(text)} names a bucket or a folder`);
  const stats = options.stats || new RequestStats();
  const { store } = role === 'source'
    ? openStore({ ...options, sourceLocation: loc, stats, maxSockets: 16 }, 'source')
    : openStore({ ...options, targetLocation: loc, stats, maxSockets: 16 }, 'target');
  return { store, key: loc.prefix, text, stats };
}

// A missing object is a fatal error naming it; anything else as describeS3Error says.
function objectError(err, store, key, text, op) {
  const code = errorCode(err);
  if (code === 'NoSuchKey' || code === 'NotFound' || (httpStatus(err) === 404 && code !== 'NoSuchBucket')) {
    return new FatalError(`${text}: no such object`, { cause: err });
  }
  if (code === 'InvalidRange' || httpStatus(err) === 416) return new UsageError(`${text}: the range is not satisfiable (the object is shorter)`, { cause: err });
  return describeS3Error(err, { bucket: store.bucket, key, op });
}

// "0-99", "100-", "-500" or "bytes=0-99": the Range header.
function parseRange(range) {
  if (range === undefined || range === null || range === '') return undefined;
  const m = /^\s*(?:bytes=)?(\d+-\d*|-\d+)\s*$/.exec(String(range));
  if (!m) throw new UsageError(`--range must be FIRST-LAST, FIRST- or -SUFFIX (bytes, as in 0-99), not ${JSON.stringify(String(range))}`);
  const [a, b] = m[1].split('-');
  if (a !== '' && b !== '' && Number(b) < Number(a)) throw new UsageError(`--range ${range}: the last byte is before the first`);
  return `bytes=${m[1]}`;
}

// The version of the object a read names: options.versionId, or the newest version at or
// before options.asOf (ListObjectVersions of the key); undefined for the current object.
// Every option that picks versions is checked here, where one object is read.
async function versionToRead(options, store, key, text, stats) {
  if (options.allVersions) throw new UsageError(`--all-versions reads every version: ${text} is read one version at a time (give --version-id or --as-of)`);
  const t = parseAsOf(options.asOf);
  const versionId = options.versionId === undefined || options.versionId === null ? undefined : String(options.versionId);
  if (versionId !== undefined && t !== null) throw new UsageError('--version-id names one version: it cannot be combined with --as-of');
  if (versionId === '') throw new UsageError('--version-id needs a version id');
  if (t === null) return versionId;
  if (typeof store.listVersionsPage !== 'function') throw new UsageError('--as-of needs an S3 source (a folder has no versions)');
  const found = await findVersionAt(store, key, t, { signal: options.signal, stats });
  if (found.item) return found.item.VersionId;
  throw new FatalError(`${text}: ${noObjectAt(found, new Date(t).toISOString())}`);
}

// A missing version is named as such; a delete marker (405) too.
function versionError(err, text, versionId) {
  if (versionId === undefined) return null;
  const code = errorCode(err), status = httpStatus(err);
  if (status === 404 || code === 'NoSuchVersion' || code === 'NoSuchKey' || code === 'NotFound') return new FatalError(`${text}: version ${JSON.stringify(versionId)} was not found`, { cause: err });
  if (status === 405 || code === 'MethodNotAllowed') return new FatalError(`${text}: version ${JSON.stringify(versionId)} is a delete marker: there is nothing to read`, { cause: err });
  if (status === 400 && (code === 'InvalidArgument' || code === 'BadRequest' || !code)) return new FatalError(`${text}: ${JSON.stringify(versionId)} is not a version id of this object (the store answered 400)`, { cause: err });
  return null;
}

/**
 * cat: the object's bytes. Resolves to {stream (a Readable), contentLength, contentRange,
 * contentType, etag, versionId}; the store is released when the stream ends or is destroyed.
 * Options: source (s3://bucket/key), range, versionId (that version) or asOf (the newest
 * version at or before it), connection options, signal.
 */
async function cat(options = {}) {
  const Range = parseRange(options.range);
  const { store, key, text, stats } = objectAt(options, 'cat');
  let VersionId;
  try {
    VersionId = await versionToRead(options, store, key, text, stats);
    stats.count('GET');
    const out = await store.getObject({ Key: key, VersionId, Range }, options.signal);
    const stream = out.Body;
    let released = false;
    const release = () => { if (!released) { released = true; store.destroy(); } };
    stream.once('close', release);
    stream.once('end', release);
    stream.once('error', release);
    return { stream, contentLength: out.ContentLength, contentRange: out.ContentRange, contentType: out.ContentType, etag: out.ETag, versionId: out.VersionId };
  } catch (err) {
    store.destroy();
    if (err instanceof S3BlitzError) throw err;
    throw versionError(err, text, VersionId) || objectError(err, store, key, text, 'GetObject');
  }
}

/**
 * head: HeadObject as the SDK answers it ({Bucket, Key, ContentLength, ContentType, ETag,
 * LastModified, Metadata, ...}), with Tags ({key: value}) when options.tags; of one version
 * with options.versionId or options.asOf, as cat reads it.
 */
async function head(options = {}) {
  const { store, key, text, stats } = objectAt(options, 'head');
  let versionId;
  try {
    versionId = await versionToRead(options, store, key, text, stats);
    return await store.describeObject(key, { tags: Boolean(options.tags), versionId, signal: options.signal });
  } catch (err) {
    if (err instanceof S3BlitzError) throw err;
    throw versionError(err, text, versionId) || objectError(err, store, key, text, 'HeadObject');
  } finally {
    store.destroy();
  }
}

/**
 * putStream: a stream of unknown length (options.stream, e.g. process.stdin) to the object
 * options.target names; multipart past the first part (--part-size, default 8MiB), parts
 * going up --part-concurrency at once. Resolves to {target, bytes, parts, etag, stats}; with
 * noOverwrite, an object already there is left: {target, skipped: 'exists', bytes: 0, stats}.
 */
async function putStream(options = {}) {
  if (!options.stream || typeof options.stream[Symbol.asyncIterator] !== 'function') throw new UsageError('putStream needs stream: a readable stream');
  const w = normalizeWriteOptions(options);
  const partSize = option(options, 'partSize') || STREAM_PART;
  const partConcurrency = option(options, 'partConcurrency');
  const { store, key, text, stats } = objectAt(options, 'cp -', 'target');
  try {
    await store.open();
    const guard = w.noOverwrite ? new WriteGuard({ dst: store, prefix: key.slice(0, key.lastIndexOf('/') + 1), signal: options.signal, notice: options.log }) : null;
    const r = await uploadStream({ store, key, stream: options.stream, w, partSize, partConcurrency, signal: options.signal, stats, guard });
    return { target: text, ...r, stats: stats.toJSON() };
  } catch (err) {
    const status = httpStatus(err);
    // If-None-Match: * refused: the key exists (a 409 is a write of someone else's under way).
    if (w.noOverwrite && (status === 412 || (status === 409 && await store.stat(key).catch(() => null)))) {
      return { target: text, skipped: 'exists', bytes: 0, parts: 0, stats: stats.toJSON() };
    }
    throw describeS3Error(err, { bucket: store.bucket, key, op: 'upload' });
  } finally {
    store.destroy();
  }
}

function bucketAt(options, what) {
  const loc = resolveLocation({ location: options.source, bucket: options.bucket }, 'source');
  if (loc.type !== 's3') throw new UsageError(`${what} needs s3://bucket, not ${JSON.stringify(loc.text)}`);
  if (loc.prefix || loc.glob) throw new UsageError(`${what} takes a bucket, not a path inside one: ${JSON.stringify(loc.text)}`);
  const { store } = openStore({ ...options, sourceLocation: loc, maxSockets: 4 }, 'source');
  return { store, loc };
}

/** mb: creates the bucket (in --region when it is not us-east-1). */
async function mb(options = {}) {
  const { store, loc } = bucketAt(options, 'mb');
  try {
    await store.createBucket({ signal: options.signal });
    return { bucket: loc.bucket, created: true };
  } catch (err) {
    const code = errorCode(err);
    if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') throw new FatalError(`bucket ${JSON.stringify(loc.bucket)} already exists${code === 'BucketAlreadyExists' ? ' (owned by someone else)' : ''}`, { cause: err });
    throw describeS3Error(err, { bucket: loc.bucket, op: 'CreateBucket' });
  } finally {
    store.destroy();
  }
}

/**
 * rb: deletes the bucket. With force, its objects first (rm of s3://bucket/ with every rm
 * option: --max-delete, --dryrun), and the bucket only when all of them are gone.
 * Resolves to {bucket, removed, emptied (rm's result, with force)}.
 */
async function rb(options = {}) {
  const { store, loc } = bucketAt(options, 'rb');
  let emptied = null;
  try {
    if (options.force) {
      emptied = await rm({ ...options, source: `s3://${loc.bucket}/`, bucket: undefined, force: false });
      if (emptied.noMatch) delete emptied.noMatch; // an empty bucket is fine here
      if (options.dryrun || !emptied.complete || emptied.failed.objects) return { bucket: loc.bucket, removed: false, emptied, ok: Boolean(options.dryrun) && emptied.failed.objects === 0 };
    }
    await store.deleteBucket({ signal: options.signal });
    return { bucket: loc.bucket, removed: true, emptied, ok: true };
  } catch (err) {
    if (errorCode(err) === 'BucketNotEmpty') {
      const hint = options.force && !options.allVersions ? ': it may hold old versions or delete markers (rb --force --all-versions deletes them too)' : ': rb --force deletes its objects first';
      throw new FatalError(`bucket ${JSON.stringify(loc.bucket)} is not empty${hint}`, { cause: err });
    }
    throw describeS3Error(err, { bucket: loc.bucket, op: 'DeleteBucket' });
  } finally {
    store.destroy();
  }
}

module.exports = { cat, head, putStream, mb, rb, parseRange };
