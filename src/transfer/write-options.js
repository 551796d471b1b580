'use strict';
// Write options shared by every way of writing an object (CopyObject, multipart, PutObject):
// ACL, storage class, content headers, metadata, tagging, SSE, requester pays, and the
// checksum uploads send (checksumAlgorithm: null for none).
const { UsageError } = require('../errors');
const { option } = require('../options');
const { ALGORITHMS } = require('./write-checksum');
const { TABLE } = require('../stores/checksum-algorithms');

const CONTENT_FIELDS = [
  ['cacheControl', 'CacheControl'],
  ['contentType', 'ContentType'],
  ['contentDisposition', 'ContentDisposition'],
  ['contentEncoding', 'ContentEncoding'],
  ['contentLanguage', 'ContentLanguage'],
];
const STORAGE_CLASSES = ['STANDARD', 'REDUCED_REDUNDANCY', 'STANDARD_IA', 'ONEZONE_IA', 'INTELLIGENT_TIERING', 'GLACIER', 'DEEP_ARCHIVE', 'GLACIER_IR', 'OUTPOSTS', 'SNOW', 'EXPRESS_ONEZONE'];
const ACLS = ['private', 'public-read', 'public-read-write', 'authenticated-read', 'aws-exec-read', 'bucket-owner-read', 'bucket-owner-full-control'];

/** Validates and normalizes the user's write options once, before any request. */
function normalizeWriteOptions(o = {}) {
  const w = {};
  for (const [opt, field] of CONTENT_FIELDS) if (o[opt] !== undefined) w[field] = String(o[opt]);
  if (o.expires !== undefined) {
    const d = o.expires instanceof Date ? o.expires : new Date(o.expires);
    if (Number.isNaN(+d)) throw new UsageError(`--expires must be a date, not ${JSON.stringify(String(o.expires))}`);
    w.Expires = d;
  }
  if (o.metadata !== undefined) {
    let m = o.metadata;
    if (typeof m === 'string') {
      try { m = JSON.parse(m); } catch { throw new UsageError('--metadata must be a JSON object such as {"owner":"data-team"}'); }
    }
    if (!m || typeof m !== 'object' || Array.isArray(m)) throw new UsageError('--metadata must be a JSON object');
    w.Metadata = Object.fromEntries(Object.entries(m).map(([k, v]) => [k.toLowerCase(), String(v)]));
  }
  if (o.metadataDirective !== undefined) {
    const d = String(o.metadataDirective).toUpperCase();
    if (d !== 'COPY' && d !== 'REPLACE') throw new UsageError('--metadata-directive must be COPY or REPLACE');
    w.directive = d;
  }
  if (o.storageClass !== undefined) {
    const s = String(o.storageClass).toUpperCase();
    if (!STORAGE_CLASSES.includes(s)) throw new UsageError(`--storage-class must be one of ${STORAGE_CLASSES.join(', ')}`);
    w.StorageClass = s;
  }
  if (o.acl !== undefined) {
    if (!ACLS.includes(o.acl)) throw new UsageError(`--acl must be one of ${ACLS.join(', ')}`);
    w.ACL = o.acl;
  }
  if (o.tagging !== undefined) {
    const t = typeof o.tagging === 'string' ? o.tagging : new URLSearchParams(o.tagging).toString();
    w.Tagging = t;
  }
  if (o.sse !== undefined) {
    if (o.sse !== 'AES256' && o.sse !== 'aws:kms' && o.sse !== 'aws:kms:dsse') throw new UsageError('--sse must be AES256 or aws:kms');
    w.ServerSideEncryption = o.sse;
  }
  if (o.sseKmsKeyId !== undefined) {
    if (!w.ServerSideEncryption) w.ServerSideEncryption = 'aws:kms';
    w.SSEKMSKeyId = o.sseKmsKeyId;
  }
  if (o.noOverwrite) w.noOverwrite = true;
  const checksum = o.checksumAlgorithm === false ? 'NONE' : String(option(o, 'checksumAlgorithm')).toUpperCase();
  if (TABLE.some((a) => a.name === checksum) && !ALGORITHMS.includes(checksum)) {
    throw new UsageError(`--checksum-algorithm ${checksum}: s3blitz reads and compares it where objects store it, but writes only ${ALGORITHMS.join(', ')} (the ones it has been tried against)`);
  }
  if (checksum !== 'NONE' && !ALGORITHMS.includes(checksum)) throw new UsageError(`--checksum-algorithm must be one of ${ALGORITHMS.join(', ')} or none, not ${JSON.stringify(String(o.checksumAlgorithm))}`);
  w.checksumAlgorithm = checksum === 'NONE' ? null : checksum;
  // Named by the user, it is also what server-side copies are stored with (CopyObject's
  // x-amz-checksum-algorithm: the server computes it from the bytes). Left at the default, a
  // copy keeps the source's checksum (S3 adds CRC64NVME where the source has none).
  w.copyChecksumAlgorithm = o.checksumAlgorithm !== undefined && w.checksumAlgorithm ? checksum : null;
  if (o.requestPayer !== undefined) {
    if (o.requestPayer !== 'requester') throw new UsageError('--request-payer must be "requester"');
    w.RequestPayer = 'requester';
  }
  // Content headers or metadata imply REPLACE, with the source's other metadata carried over.
  w.replace = w.directive === 'REPLACE' || CONTENT_FIELDS.some(([, f]) => w[f] !== undefined) || w.Expires !== undefined || w.Metadata !== undefined;
  if (w.directive === 'COPY' && w.replace && (w.Metadata || CONTENT_FIELDS.some(([, f]) => w[f] !== undefined))) {
    throw new UsageError('--metadata-directive COPY cannot be combined with --metadata or content headers');
  }
  return w;
}

// Headers of an object as HeadObject returns them, merged with the user's overrides:
// what a REPLACE copy or a new multipart upload must send to keep the object as it was.
function mergedHeaders(head, w) {
  const out = {};
  for (const [, f] of CONTENT_FIELDS) {
    const v = w[f] !== undefined ? w[f] : head && head[f];
    if (v !== undefined && v !== null) out[f] = v;
  }
  const exp = w.Expires !== undefined ? w.Expires : head && (head.Expires || head.ExpiresString);
  if (exp) out.Expires = exp instanceof Date ? exp : new Date(exp);
  if (out.Expires && Number.isNaN(+out.Expires)) delete out.Expires;
  out.Metadata = { ...(head && head.Metadata), ...(w.Metadata || {}) };
  return out;
}

// Parameters every write carries: ACL, storage class, SSE, requester pays.
function commonWriteParams(w, sourceStorageClass) {
  const p = {};
  if (w.ACL) p.ACL = w.ACL;
  const sc = w.StorageClass || (sourceStorageClass && sourceStorageClass !== 'STANDARD' ? sourceStorageClass : undefined);
  if (sc) p.StorageClass = sc;
  if (w.ServerSideEncryption) p.ServerSideEncryption = w.ServerSideEncryption;
  if (w.SSEKMSKeyId) p.SSEKMSKeyId = w.SSEKMSKeyId;
  if (w.RequestPayer) p.RequestPayer = w.RequestPayer;
  return p;
}

// The source's storage class where the target can take it: a directory bucket's classes
// (EXPRESS_ONEZONE) are refused by a general-purpose bucket and the other way round, so
// between the two kinds the target's own default applies.
function keptStorageClass(item, src, dst) {
  return Boolean(src && src.directoryBucket) === Boolean(dst && dst.directoryBucket) ? item.StorageClass : undefined;
}

// Whether a copy under these write options changes the object (its metadata, class, tags,
// ACL, encryption or checksum), rather than only putting its bytes under another key.
function changesObject(w) {
  return Boolean(w && (w.replace || w.StorageClass || w.Tagging !== undefined || w.ACL || w.ServerSideEncryption || w.copyChecksumAlgorithm));
}

// The condition of a write that creates an object (PutObject, CopyObject,
// CompleteMultipartUpload): with --no-overwrite, only where no object has the key.
function noOverwriteParams(w) {
  return w && w.noOverwrite ? { IfNoneMatch: '*' } : {};
}

module.exports = { normalizeWriteOptions, mergedHeaders, commonWriteParams, keptStorageClass, changesObject, noOverwriteParams, CONTENT_FIELDS, STORAGE_CLASSES };
