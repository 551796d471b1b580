'use strict';
// Server-side copies within one endpoint: CopyObject, or parallel UploadPartCopy where the
// source's part layout is to be kept or CopyObject cannot reach (see serverCopy). Every request names the ETag seen in the listing
// (x-amz-copy-source-if-match), so two versions of an object are never mixed.
const pLimit = require('p-limit');
const { copySource } = require('../stores/copy-source');
const { option } = require('../options');
const { mergedHeaders, commonWriteParams, keptStorageClass, noOverwriteParams } = require('./write-options');
const { choosePartSize, partRanges, multipartCount, MIN_PART, MAX_PART, MAX_SINGLE_COPY } = require('./part-layout');
const { ObjectError } = require('../errors');
const { httpStatus, errorCode } = require('../stores/s3-errors');
const { storedChecksums } = require('../stores/stored-checksum');
const { headWritten } = require('./write-checksum');

async function headSource(job, partNumber, ifMatch = true) {
  const { src, item, stats, signal } = job;
  stats.count('HEAD');
  return src.headObject({ Key: item.Key, VersionId: item.VersionId, IfMatch: ifMatch ? item.ETag || undefined : undefined, PartNumber: partNumber, ChecksumMode: 'ENABLED' }, signal);
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
      job.notice(`the source server answers HeadObject with partNumber=1 with HTTP ${status}: its multipart objects cannot keep their part layout, so their copies get other ETags than their sources`);
    }
    return { head, part };
  }
}

// The source's tags as a Tagging parameter. HeadObject says how many there are (S3 sends no
// count for an untagged object), which spares the usual untagged object a request.
async function sourceTagging(job, head) {
  if (job.w.Tagging !== undefined) return job.w.Tagging;
  if (!head.TagCount) return undefined;
  const { src, item, stats, signal } = job;
  try {
    stats.count('GET');
    const out = await src.getObjectTagging({ Key: item.Key, VersionId: item.VersionId }, signal);
    const tags = out.TagSet || [];
    return tags.length ? new URLSearchParams(tags.map((t) => [t.Key, t.Value])).toString() : undefined;
  } catch (err) {
    // Stores without tagging support: copy without tags rather than fail the object.
    if (errorCode(err) === 'NotImplemented') return undefined;
    throw err;
  }
}

// One CopyObject. With REPLACE (content headers or metadata given), the source's other
// headers are read first and carried over, as a COPY would have kept them.
async function copySmall(job) {
  const { src, dst, item, key, w, stats, signal } = job;
  const params = {
    Key: key,
    CopySource: copySource(src.bucket, item.Key, item.VersionId),
    CopySourceIfMatch: item.ETag || undefined,
    ...commonWriteParams(w, keptStorageClass(item, job.src, job.dst)),
    ...noOverwriteParams(w),
    ...(w.copyChecksumAlgorithm ? { ChecksumAlgorithm: w.copyChecksumAlgorithm } : {}),
  };
  if (w.replace) {
    const head = await headSource(job);
    Object.assign(params, mergedHeaders(head, w), { MetadataDirective: 'REPLACE' });
  }
  if (w.Tagging !== undefined) Object.assign(params, { Tagging: w.Tagging, TaggingDirective: 'REPLACE' });
  stats.count('COPY');
  const etag = await dst.copyObject(params, signal);
  stats.bytes += item.Size;
  return { status: 'copied', bytes: item.Size, etag };
}

// The source's own part layout, when it can be reproduced: equal parts but the last,
// each within S3's limits (a lone part may be smaller: it is the last). Reusing it makes
// the copy's ETag equal the source's.
function sourceLayout(item, head1) {
  const parts = head1.PartsCount || multipartCount(item.ETag);
  const first = head1.ContentLength;
  if (parts === 1 && first === item.Size) return item.Size;
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
  // A layout that cannot be learnt cannot be kept: one CopyObject is then the cheapest copy.
  // (With --no-overwrite, only where the server honours If-None-Match on CopyObject.)
  if (mp && !layout && !job.partSize && item.Size <= MAX_SINGLE_COPY && (!job.guard || await job.guard.ok('copy'))) return copySmall(job);
  const partSize = layout || choosePartSize(item.Size, job.partSize);
  const tagging = await sourceTagging(job, head);
  const headers = mergedHeaders(head, w);
  // Never cut short: an upload the server created but we never heard of would be orphaned.
  if (job.onCreating) await job.onCreating(key);
  stats.count('POST');
  const created = await dst.createMultipartUpload({ Key: key, ...headers, ...commonWriteParams(w, keptStorageClass(item, job.src, job.dst)), Tagging: tagging });
  const uploadId = created.UploadId;
  if (job.onUpload) job.onUpload(key, uploadId);
  try {
    if (signal && signal.aborted) throw signal.reason || new Error('aborted');
    const limit = pLimit(option(job, 'partConcurrency')); // a job built by hand (tests) may leave it out
    const source = copySource(src.bucket, item.Key, item.VersionId);
    const parts = await Promise.all(partRanges(item.Size, partSize).map(([start, end], i) => limit(async () => {
      if (signal && signal.aborted) throw signal.reason || new Error('aborted');
      stats.count('COPY');
      const out = await dst.uploadPartCopy({
        Key: key, UploadId: uploadId, PartNumber: i + 1,
        CopySource: source, CopySourceRange: `bytes=${start}-${end}`, CopySourceIfMatch: item.ETag || undefined,
        RequestPayer: w.RequestPayer,
      }, signal);
      if (!out.CopyPartResult || !out.CopyPartResult.ETag) throw new ObjectError('failed', `UploadPartCopy of part ${i + 1} answered without a result`);
      stats.bytes += end - start + 1;
      return { ETag: out.CopyPartResult.ETag, PartNumber: i + 1 };
    })));
    stats.count('POST');
    const done = await dst.completeMultipartUpload({ Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts }, RequestPayer: w.RequestPayer, ...noOverwriteParams(w) }, signal);
    if (!done.ETag) throw new ObjectError('failed', 'CompleteMultipartUpload answered without an ETag');
    await proveCopy(job, mp ? null : head, done.ETag);
    return { status: 'copied', bytes: item.Size, etag: done.ETag, parts: parts.length };
  } catch (err) {
    // Best effort: the copy's own error is what the report needs.
    await dst.abortUpload({ key, uploadId }, stats);
    throw err;
  }
}

// A multipart copy's stored full-object checksum against its source's (checksum mode on:
// the source's from the HEAD the copy already made where that was a plain one, else one more).
// The upload is created without a checksum algorithm (MinIO refuses UploadPartCopy into one
// that has one), so this holds where the server computes one for the completed copy (S3 does);
// a copy or a source without one is counted unconfirmed. A different value fails the object:
// the server kept other bytes than the source's.
async function proveCopy(job, sourceHead, etag) {
  const { src, dst, item, key, stats, signal } = job;
  // A target found to store no checksum on a multipart copy (MinIO, SeaweedFS) is asked once.
  if (dst.copiesUnchecksummed) { stats.checksumsUnconfirmed++; return; }
  const copy = await headWritten(dst, key, etag, stats, signal);
  if (!copy) { stats.checksumsUnconfirmed++; return; }
  const stored = storedChecksums(copy);
  if (!stored.length) dst.copiesUnchecksummed = true;
  const theirs = stored.find((c) => c.full);
  let ours = null;
  if (theirs) {
    if (!sourceHead) sourceHead = await headSource(job);
    ours = storedChecksums(sourceHead).find((c) => c.full && c.algorithm === theirs.algorithm) || null;
  }
  if (!ours) { stats.checksumsUnconfirmed++; return; }
  if (ours.value !== theirs.value) throw new ObjectError('failed', `the copy stores ${theirs.algorithm} ${theirs.value} where its source stores ${ours.value}`);
  stats.checksumsConfirmed++;
}

// The cheapest copy that keeps the ETag (docs/commands.md, "Copy policy"): one CopyObject for every
// single-part source up to CopyObject's 5 GiB (its MD5 ETag stays, whatever its size);
// parts in the source's own layout for a multipart source at or above the threshold (or
// any, with keepPartLayout), so its "-N" ETag stays; parts for everything over 5 GiB. A
// multipart source below the threshold takes one CopyObject and gets an MD5 ETag.
function keepsLayout(item, job) {
  if (item.Size > MAX_SINGLE_COPY) return true;
  if (item.Size === 0 || !multipartCount(item.ETag)) return false;
  return job.keepPartLayout || item.Size >= job.largeCopyThreshold;
}

function serverCopy(job) {
  return keepsLayout(job.item, job) ? copyMultipart(job) : copySmall(job);
}

module.exports = { serverCopy, copySmall, copyMultipart, sourceLayout, keepsLayout, NO_PART_HEAD };
