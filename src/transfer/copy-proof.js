'use strict';
// Whether a copy holds its source's bytes, proven from what the stores say, never assumed
// (mv deletes a source only on such a proof). How, by the kind of copy:
// - S3 to S3: the copy's ETag is the source's (CopyObject of a single-part object, or a
//   multipart copy in the source's part layout: the same part MD5s); else both objects store
//   the same full-object checksum, or HEADs give the same ETag (a copy through this machine);
//   where nothing stored says it, both objects are read and their MD5s compared ('read').
// - S3 to a file: the download was checked against the object's stored checksum; else the
//   file's MD5 is the source's single-part ETag, or its parts' MD5s make the multipart one.
// - a file to S3: the server checked the body on receipt (Content-MD5 or the checksum sent
//   with it, upload.js), and the upload stops where the file changed while it was read.
// Anything else is not proven: the caller keeps the source and says why.
const crypto = require('crypto');
const fs = require('fs');
const { localPath } = require('../stores/local-paths');
const { checksumVerdict } = require('../stores/stored-checksum');
const { multipartCount } = require('./part-layout');
const { ObjectError } = require('../errors');

const bare = (etag) => String(etag || '').replace(/"/g, '');
const isMd5 = (etag) => /^[0-9a-f]{32}$/i.test(bare(etag)) && !multipartCount(etag);

async function fileMd5(file, signal) {
  const hash = crypto.createHash('md5');
  for await (const chunk of fs.createReadStream(file, { signal })) hash.update(chunk);
  return hash.digest('hex');
}

// The multipart ETag a file would have in parts of partSize: MD5 of the parts' MD5s, "-N".
async function fileMultipartEtag(file, partSize, signal) {
  const digests = [];
  let part = crypto.createHash('md5'), filled = 0;
  for await (let chunk of fs.createReadStream(file, { signal, highWaterMark: 1024 * 1024 })) {
    while (chunk.length) {
      const take = Math.min(chunk.length, partSize - filled);
      part.update(chunk.subarray(0, take));
      filled += take;
      chunk = chunk.subarray(take);
      if (filled === partSize) { digests.push(part.digest()); part = crypto.createHash('md5'); filled = 0; }
    }
  }
  if (filled) digests.push(part.digest());
  return `${crypto.createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${digests.length}`;
}

/**
 * How the copy of job.item (job.key on job.dst) is proven to hold the same bytes: 'etag',
 * 'checksum', 'md5', 'read' or 'received'. Throws ObjectError('failed') where it is not.
 */
async function proveCopy(job, outcome) {
  const { item, src, dst, stats, signal } = job;
  if (src.type === 'local' && dst.type === 's3') return 'received';
  if (src.type === 's3' && dst.type === 'local') {
    if (outcome.checked) return 'checksum';
    const file = localPath(dst.root, job.key);
    const want = bare(item.ETag).toLowerCase();
    if (isMd5(item.ETag)) {
      const md5 = await fileMd5(file, signal);
      if (md5 !== want) throw new ObjectError('failed', `the downloaded file's MD5 ${md5} is not the object's ETag ${bare(item.ETag)}`);
      return 'md5';
    }
    // A multipart ETag: the MD5 of the parts' MD5s, where the parts are equal but the last
    // (the size of part 1, from a HEAD, and the count from the ETag say where they end).
    const parts = multipartCount(item.ETag);
    stats.count('HEAD');
    const first = parts ? (await src.headObject({ Key: item.Key, PartNumber: 1, IfMatch: item.ETag || undefined }, signal)).ContentLength : 0;
    if (!parts || !first || Math.ceil(item.Size / first) !== parts) throw new ObjectError('failed', 'the download could not be proven (the object stores no full-object checksum, and its ETag is neither an MD5 nor one of equal parts)');
    const etag = await fileMultipartEtag(file, first, signal);
    if (etag !== want) throw new ObjectError('failed', `the downloaded file's multipart ETag ${etag} is not the object's ${bare(item.ETag)}`);
    return 'md5';
  }
  if (src.type !== 's3' || dst.type !== 's3') throw new ObjectError('failed', `a copy from a ${src.type} store to a ${dst.type} store cannot be proven`);
  if (outcome.etag && item.ETag && bare(outcome.etag) === bare(item.ETag)) return 'etag';
  stats.count('HEAD');
  stats.count('HEAD');
  const [theirs, ours] = await Promise.all([
    dst.headObject({ Key: job.key, IfMatch: outcome.etag || undefined, ChecksumMode: 'ENABLED' }, signal),
    src.headObject({ Key: item.Key, IfMatch: item.ETag || undefined, ChecksumMode: 'ENABLED' }, signal),
  ]);
  const verdict = checksumVerdict(ours, theirs);
  if (verdict && !verdict.same) throw new ObjectError('failed', `the copy's ${verdict.how} differs from its source's`);
  if (verdict) return 'checksum';
  if (theirs.ETag && bare(theirs.ETag) === bare(ours.ETag)) return 'etag';
  // Nothing stored says it (a server that keeps no checksums and gives a multipart copy an
  // MD5 ETag): both objects are read, each pinned to its ETag, and their MD5s compared.
  const [a, b] = await Promise.all([
    streamMd5(await src.readStream({ Key: item.Key, ETag: item.ETag }, signal)),
    streamMd5(await dst.readStream({ Key: job.key, ETag: outcome.etag || theirs.ETag }, signal)),
  ]);
  if (a !== b) throw new ObjectError('failed', `the copy's bytes differ from its source's (MD5 ${b}, the source's ${a})`);
  return 'read';
}

async function streamMd5(stream) {
  const hash = crypto.createHash('md5');
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

module.exports = { proveCopy, isMd5, fileMultipartEtag };
