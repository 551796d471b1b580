'use strict';
// Server-side copies within one endpoint: CopyObject for small objects, parallel
// UploadPartCopy for large ones. Every request names the ETag seen in the listing
// (x-amz-copy-source-if-match), so two versions of an object are never mixed.
const pLimit = require('p-limit');
const {
  CopyObjectCommand, HeadObjectCommand, GetObjectTaggingCommand, CreateMultipartUploadCommand,
  UploadPartCopyCommand, CompleteMultipartUploadCommand,
} = require('@aws-sdk/client-s3');
const { copySource } = require('./copy-source');
const { mergedHeaders, commonWriteParams } = require('./write-options');
const { choosePartSize, partRanges, multipartCount, MIN_PART, MAX_PART, MAX_SINGLE_COPY } = require('./part-layout');
const { ObjectError } = require('./outcome');
const { abortUpload } = require('./abort-upload');
const { httpStatus } = require('../stores/s3-errors');

function send(store, stats, type, command, signal) {
  stats.count(type);
  return store.client.send(command, { abortSignal: signal });
}

async function headSource(job, partNumber, ifMatch = true) {
  const { src, item, stats, signal } = job;
  return send(src, stats, 'HEAD', new HeadObjectCommand({
    Bucket: src.bucket, Key: item.Key, IfMatch: ifMatch ? item.ETag || undefined : undefined, PartNumber: partNumber, RequestPayer: src.requestPayer,
  }), signal);
}

// Answers to HeadObject partNumber=1 that say the server cannot do it, not that the object
// changed: moto checks If-Match against the part's own ETag (412), s3proxy has no part
// HEADs (501), others refuse the parameter (400, 416).
const NO_PART_HEAD = new Set([400, 412, 416, 501]);

// A multipart source's headers, and the answer about its first part (null where the server
// gives none). Where the part HEAD fails, a plain HEAD (with If-Match: a 412 there does mean
// changed) gives the headers, the copy uses a part size of its own, and the run says so once.
async function headMultipartSource(job) {
  try {
    const head = await headSource(job, 1);
    return { head, part: head };
  } catch (err) {
    const status = httpStatus(err);
    if (!NO_PART_HEAD.has(status)) throw err;
    const head = await headSource(job);
    // moto answers a part HEAD without If-Match; what it says is checked by sourceLayout.
    const part = status === 412 ? await headSource(job, 1, false).catch(() => null) : null;
    if (!part && job.notice) {
      job.notice(`the source server answers HeadObject with partNumber=1 with HTTP ${status}: multipart objects are copied in parts of s3blitz's own size, so their copies get other ETags than their sources`);
    }
    return { head, part };
  }
}

async function sourceTagging(job) {
  if (job.w.Tagging !== undefined) return job.w.Tagging;
  const { src, item, stats, signal } = job;
  try {
    const out = await send(src, stats, 'GET', new GetObjectTaggingCommand({ Bucket: src.bucket, Key: item.Key, RequestPayer: src.requestPayer }), signal);
    const tags = out.TagSet || [];
    return tags.length ? new URLSearchParams(tags.map((t) => [t.Key, t.Value])).toString() : undefined;
  } catch (err) {
    // Stores without tagging support: copy without tags rather than fail the object.
    if (err && (err.name === 'NotImplemented' || err.Code === 'NotImplemented')) return undefined;
    throw err;
  }
}

// CopyObject parameters (without REPLACE) as request headers.
function copyHeaders(p) {
  const h = { 'x-amz-copy-source': p.CopySource };
  if (p.CopySourceIfMatch) h['x-amz-copy-source-if-match'] = p.CopySourceIfMatch;
  if (p.StorageClass) h['x-amz-storage-class'] = p.StorageClass;
  if (p.ACL) h['x-amz-acl'] = p.ACL;
  if (p.ServerSideEncryption) h['x-amz-server-side-encryption'] = p.ServerSideEncryption;
  if (p.SSEKMSKeyId) h['x-amz-server-side-encryption-aws-kms-key-id'] = p.SSEKMSKeyId;
  if (p.RequestPayer) h['x-amz-request-payer'] = 'requester';
  if (p.Tagging !== undefined) { h['x-amz-tagging'] = p.Tagging; h['x-amz-tagging-directive'] = 'REPLACE'; }
  return h;
}

// One CopyObject. With REPLACE (content headers or metadata given), the source's other
// headers are read first and carried over, as a COPY would have kept them.
async function copySmall(job) {
  const { src, dst, item, key, w, stats, signal } = job;
  const params = {
    Bucket: dst.bucket,
    Key: key,
    CopySource: copySource(src.bucket, item.Key),
    CopySourceIfMatch: item.ETag || undefined,
    ...commonWriteParams(w, item.StorageClass),
  };
  if (w.replace) {
    const head = await headSource(job);
    Object.assign(params, mergedHeaders(head, w), { MetadataDirective: 'REPLACE' });
  }
  if (w.Tagging !== undefined) Object.assign(params, { Tagging: w.Tagging, TaggingDirective: 'REPLACE' });
  if (dst.fast && !w.replace) {
    // The lean path: one signed PUT, no SDK middleware; anything unusual goes to the SDK.
    try {
      stats.count('COPY');
      const etag = await dst.fast.copyObject(key, copyHeaders(params), signal);
      stats.bytes += item.Size;
      return { status: 'copied', bytes: item.Size, etag };
    } catch (err) {
      dst.fellBack(err);
    }
  }
  const out = await send(dst, stats, 'COPY', new CopyObjectCommand(params), signal);
  // A 200 whose body is an error has no result; the SDK throws for most, check the rest.
  if (!out.CopyObjectResult || !out.CopyObjectResult.ETag) throw new ObjectError('failed', 'CopyObject answered without a result');
  stats.bytes += item.Size;
  return { status: 'copied', bytes: item.Size, etag: out.CopyObjectResult.ETag };
}

// The source's own part layout, when it can be reproduced: equal parts but the last,
// each within S3's limits. Reusing it makes the copy's ETag equal the source's.
function sourceLayout(item, head1) {
  const parts = head1.PartsCount || multipartCount(item.ETag);
  const first = head1.ContentLength;
  if (!parts || parts < 2 || !first || first < MIN_PART || first > MAX_PART) return null;
  if (Math.ceil(item.Size / first) !== parts) return null;
  return first;
}

async function copyMultipart(job) {
  const { src, dst, item, key, w, stats, signal } = job;
  const mp = multipartCount(item.ETag);
  // HEAD with partNumber=1 gives the part count and first part's size along with the headers.
  const { head, part } = mp ? await headMultipartSource(job) : { head: await headSource(job), part: null };
  const layout = !job.partSize && part ? sourceLayout(item, part) : null;
  const partSize = layout || choosePartSize(item.Size, job.partSize);
  const tagging = await sourceTagging(job);
  const headers = mergedHeaders(head, w);
  // Never cut short: an upload the server created but we never heard of would be orphaned.
  if (job.onCreating) job.onCreating(key);
  const created = await send(dst, stats, 'POST', new CreateMultipartUploadCommand({
    Bucket: dst.bucket, Key: key, ...headers, ...commonWriteParams(w, item.StorageClass), Tagging: tagging,
  }));
  const uploadId = created.UploadId;
  if (job.onUpload) job.onUpload(key, uploadId);
  try {
    if (signal && signal.aborted) throw signal.reason || new Error('aborted');
    const limit = pLimit(job.partConcurrency || 8);
    const source = copySource(src.bucket, item.Key);
    const parts = await Promise.all(partRanges(item.Size, partSize).map(([start, end], i) => limit(async () => {
      if (signal && signal.aborted) throw signal.reason || new Error('aborted');
      const out = await send(dst, stats, 'COPY', new UploadPartCopyCommand({
        Bucket: dst.bucket, Key: key, UploadId: uploadId, PartNumber: i + 1,
        CopySource: source, CopySourceRange: `bytes=${start}-${end}`, CopySourceIfMatch: item.ETag || undefined,
        RequestPayer: w.RequestPayer,
      }), signal);
      if (!out.CopyPartResult || !out.CopyPartResult.ETag) throw new ObjectError('failed', `UploadPartCopy of part ${i + 1} answered without a result`);
      stats.bytes += end - start + 1;
      return { ETag: out.CopyPartResult.ETag, PartNumber: i + 1 };
    })));
    const done = await send(dst, stats, 'POST', new CompleteMultipartUploadCommand({
      Bucket: dst.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts }, RequestPayer: w.RequestPayer,
    }), signal);
    if (!done.ETag) throw new ObjectError('failed', 'CompleteMultipartUpload answered without an ETag');
    return { status: 'copied', bytes: item.Size, etag: done.ETag, parts: parts.length };
  } catch (err) {
    // Best effort: the copy's own error is what the report needs.
    await abortUpload(dst.client, { bucket: dst.bucket, key, uploadId, requestPayer: dst.requestPayer }, stats);
    throw err;
  }
}

// Small objects in one CopyObject; large ones (and every multipart source, so its part
// layout and ETag are kept, and everything over CopyObject's 5 GiB) part by part.
function serverCopy(job) {
  const { item, largeThreshold } = job;
  const multipart = item.Size > MAX_SINGLE_COPY || (item.Size > 0 && (item.Size > largeThreshold || multipartCount(item.ETag) > 0));
  return multipart ? copyMultipart(job) : copySmall(job);
}

module.exports = { serverCopy, copySmall, copyMultipart, sourceLayout, NO_PART_HEAD };
