'use strict';
// Whether a server honours conditional requests, measured rather than assumed: many S3
// servers accept If-None-Match or a DeleteObjects ETag and ignore it (s3proxy overwrites on a
// CopyObject with If-None-Match: *), and a header that is silently ignored must never be
// trusted. Each probe works on an object of its own (a random key under the run's prefix),
// never on the user's, and removes what it wrote, by version id where the bucket keeps
// versions.
const crypto = require('crypto');
const {
  PutObjectCommand, CopyObjectCommand, CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand,
  AbortMultipartUploadCommand, DeleteObjectsCommand,
} = require('@aws-sdk/client-s3');
const { httpStatus, errorCode } = require('./s3-errors');

const WRONG_ETAG = '"00000000000000000000000000000000"';
// Answers that say the server does not take the header at all (the request shape is refused).
const REFUSED = new Set([400, 501]);

// The probe's name, reserved: listings leave such keys out (list/listing.js), since a probe of
// one run is briefly visible to every other run listing the same prefix (a shard's sync
// --delete saw another shard's probe as an extra object and deleted it).
const PROBE_MARK = '.s3blitz-probe-';
const PROBE_NAME = /\.s3blitz-probe-[0-9a-f]{16}$/;
const probeKey = (prefix) => `${prefix || ''}${PROBE_MARK}${crypto.randomBytes(8).toString('hex')}`;
const isProbeKey = (key) => PROBE_NAME.test(key);
const answered = (err) => `${errorCode(err) || 'error'}${httpStatus(err) ? ` (HTTP ${httpStatus(err)})` : ''}`;

// Every version the probe wrote (by id), or the key once where the bucket keeps none.
async function removeProbe(store, key, versionIds, signal) {
  const ids = [...new Set(versionIds.filter((v) => v !== undefined && v !== null))];
  if (store.stats) store.stats.count('DELETE');
  const Objects = ids.length ? ids.map((VersionId) => ({ Key: key, VersionId })) : [{ Key: key }];
  try {
    await store._send(DeleteObjectsCommand, { Delete: { Objects, Quiet: true } }, signal);
  } catch { /* best effort: a probe left behind is named by its key */ }
}

// A DeleteObjects of one key, not quiet: {deleted: entry} or {error: entry}.
async function deleteOne(store, object, signal) {
  if (store.stats) store.stats.count('DELETE');
  const out = await store._send(DeleteObjectsCommand, { Delete: { Objects: [object], Quiet: false } }, signal);
  const error = (out.Errors || []).find((e) => e.Key === object.Key);
  if (error) return { error };
  return { deleted: (out.Deleted || []).find((d) => d.Key === object.Key) || {} };
}

/**
 * {supported: true | false | null (could not tell), etags: whether deletes may carry ETags
 * (false where the server refuses the request shape), detail}. One request on a server that
 * answers as S3 does; three or four where it reports a missing key deleted.
 */
async function probeConditionalDeletes(store, prefix, signal) {
  const key = probeKey(prefix);
  let first;
  try {
    first = await deleteOne(store, { Key: key, ETag: WRONG_ETAG }, signal);
  } catch (err) {
    if (REFUSED.has(httpStatus(err))) return { supported: false, etags: false, detail: `DeleteObjects with an ETag answered ${answered(err)}` };
    throw err;
  }
  if (first.error) {
    const code = first.error.Code;
    if (code === 'NoSuchKey' || code === 'PreconditionFailed') return { supported: true, etags: true, detail: `a missing key with an ETag: ${code}` };
    return { supported: null, etags: true, detail: `the probe's DeleteObjects answered ${code}` };
  }
  // Reported deleted: a delete marker of a versioned bucket goes, then an object of our own decides.
  const marker = first.deleted.DeleteMarkerVersionId;
  if (marker) await removeProbe(store, key, [marker], signal);
  const versions = [];
  try {
    if (store.stats) store.stats.count('PUT');
    const put = await store._send(PutObjectCommand, { Key: key, Body: Buffer.alloc(0) }, signal);
    versions.push(put.VersionId);
  } catch (err) {
    return { supported: null, etags: true, detail: `the probe object could not be written (${answered(err)})` };
  }
  try {
    const second = await deleteOne(store, { Key: key, ETag: WRONG_ETAG }, signal);
    if (second.error && second.error.Code === 'PreconditionFailed') return { supported: true, etags: true, detail: 'a wrong ETag: PreconditionFailed (a missing key is reported deleted)' };
    if (second.error) return { supported: null, etags: true, detail: `a wrong ETag answered ${second.error.Code}` };
    versions.push(second.deleted.DeleteMarkerVersionId);
    return { supported: false, etags: true, detail: 'DeleteObjects deleted an object whose ETag did not match' };
  } finally {
    await removeProbe(store, key, versions, signal);
  }
}

// The write under test, aimed at the existing probe object with If-None-Match: *.
async function conditionalWrite(store, type, key, signal) {
  const count = (t) => { if (store.stats) store.stats.count(t); };
  if (type === 'put') {
    count('PUT');
    return store._send(PutObjectCommand, { Key: key, Body: Buffer.from('2'), IfNoneMatch: '*' }, signal);
  }
  if (type === 'copy') {
    count('COPY');
    // Onto itself: REPLACE makes such a copy legal where the header is ignored.
    return store._send(CopyObjectCommand, {
      Key: key, CopySource: `${encodeURIComponent(store.bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`,
      MetadataDirective: 'REPLACE', IfNoneMatch: '*',
    }, signal);
  }
  count('POST');
  const { UploadId } = await store._send(CreateMultipartUploadCommand, { Key: key }, signal);
  try {
    count('PUT');
    const part = await store._send(UploadPartCommand, { Key: key, UploadId, PartNumber: 1, Body: Buffer.from('3') }, signal);
    count('POST');
    return await store._send(CompleteMultipartUploadCommand, { Key: key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] }, IfNoneMatch: '*' }, signal);
  } finally {
    try { await store._send(AbortMultipartUploadCommand, { Key: key, UploadId }); } catch { /* gone after a completion */ }
  }
}

const NAMES = { put: 'PutObject', copy: 'CopyObject', complete: 'CompleteMultipartUpload' };

/**
 * Whether the server honours If-None-Match: * on one request type (put, copy, complete):
 * {honoured: true | false | null (could not tell), detail}. A probe object is created with
 * If-None-Match: *, then the request under test is aimed at it with If-None-Match: *, which
 * must fail with 412 (409, a conflicting write, counts as honoured too).
 */
async function probeConditionalWrite(store, type, prefix, signal) {
  const key = probeKey(prefix);
  const name = NAMES[type];
  const versions = [];
  let created = false;
  try {
    try {
      if (store.stats) store.stats.count('PUT');
      versions.push((await store._send(PutObjectCommand, { Key: key, Body: Buffer.from('1'), IfNoneMatch: '*' }, signal)).VersionId);
      created = true;
    } catch (err) {
      if (!REFUSED.has(httpStatus(err))) return { honoured: null, detail: `the probe object could not be written (${answered(err)})` };
      // PutObject refuses the header: the probe object goes without it, and PutObject is out.
      if (store.stats) store.stats.count('PUT');
      versions.push((await store._send(PutObjectCommand, { Key: key, Body: Buffer.from('1') }, signal)).VersionId);
      created = true;
      if (type === 'put') return { honoured: false, detail: `${name} with If-None-Match answered ${answered(err)}` };
    }
    try {
      const out = await conditionalWrite(store, type, key, signal);
      versions.push(out.VersionId);
      return { honoured: false, detail: `${name} with If-None-Match: * overwrote an existing object` };
    } catch (err) {
      const status = httpStatus(err);
      if (status === 412 || status === 409) return { honoured: true, detail: `${name}: ${answered(err)}` };
      if (REFUSED.has(status)) return { honoured: false, detail: `${name} with If-None-Match answered ${answered(err)}` };
      return { honoured: null, detail: `${name} with If-None-Match answered ${answered(err)}` };
    }
  } finally {
    if (created) await removeProbe(store, key, versions, signal);
  }
}

module.exports = { probeConditionalDeletes, probeConditionalWrite, probeKey, isProbeKey, PROBE_MARK, NAMES };
