'use strict';
// Local file -> S3. Small files go in one PutObject with their MD5 and checksum
// (--checksum-algorithm), so S3 rejects a body damaged on the way and the stored checksum is
// confirmed; larger ones as a multipart upload of checked parts (multipart-upload.js). Each body is
// read once, where the request is sent (the store's request thread). A file that changes
// while we read it is not uploaded: the object would be a mix of two versions.
const fs = require('fs');
const path = require('path');
const { localPath } = require('../stores/local-paths');
const { mergedHeaders, commonWriteParams, noOverwriteParams } = require('./write-options');
const { multipartUpload } = require('./multipart-upload');
const { choosePartSize, TRANSFER_PART } = require('./part-layout');
const { FileChanged } = require('../stores/file-io');
const { checkAnswer, field } = require('./write-checksum');
const { ObjectError } = require('../errors');

const CONTENT_TYPES = {
  txt: 'text/plain', log: 'text/plain', html: 'text/html', htm: 'text/html', css: 'text/css',
  csv: 'text/csv', tsv: 'text/tab-separated-values', md: 'text/markdown', ics: 'text/calendar',
  vtt: 'text/vtt', js: 'text/javascript', mjs: 'text/javascript', cjs: 'text/javascript',
  json: 'application/json', map: 'application/json', ndjson: 'application/x-ndjson',
  xml: 'application/xml', yaml: 'application/yaml', yml: 'application/yaml', rtf: 'application/rtf',
  pdf: 'application/pdf', wasm: 'application/wasm', sh: 'application/x-sh', jar: 'application/java-archive',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp',
  avif: 'image/avif', svg: 'image/svg+xml', ico: 'image/x-icon', bmp: 'image/bmp', tif: 'image/tiff',
  tiff: 'image/tiff', heic: 'image/heic',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', flac: 'audio/flac',
  aac: 'audio/aac', m4a: 'audio/mp4', opus: 'audio/opus', weba: 'audio/webm', mid: 'audio/midi', midi: 'audio/midi',
  mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', avi: 'video/x-msvideo',
  mkv: 'video/x-matroska', mpeg: 'video/mpeg', mpg: 'video/mpeg', ogv: 'video/ogg', ts: 'video/mp2t',
  m3u8: 'application/vnd.apple.mpegurl',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf', eot: 'application/vnd.ms-fontobject',
  doc: 'application/msword', xls: 'application/vnd.ms-excel', ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation', epub: 'application/epub+zip',
  zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar',
  bz2: 'application/x-bzip2', xz: 'application/x-xz', zst: 'application/zstd', '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar', parquet: 'application/vnd.apache.parquet',
};

function contentTypeFor(file) {
  return CONTENT_TYPES[path.extname(file).slice(1).toLowerCase()] || 'application/octet-stream';
}

async function upload(job) {
  const { item, w } = job;
  const file = localPath(job.src.root, item.Key);
  const params = {
    ...mergedHeaders(null, w),
    ContentType: w.ContentType || contentTypeFor(file),
    ...commonWriteParams(w),
    Tagging: w.Tagging,
  };
  try {
    // split ('whole' or 'parts'): how --no-overwrite's request type wants it (no-overwrite.js).
    const parts = job.split ? job.split === 'parts' : item.Size > job.largeCopyThreshold;
    const bytes = parts ? await putParts(job, file, params) : await putWhole(job, file, params);
    return { status: 'copied', bytes };
  } catch (err) {
    if (err.code === 'ENOENT') throw new ObjectError('vanished', 'deleted since it was listed');
    if (err instanceof FileChanged) throw new ObjectError('changed', err.message);
    throw err;
  }
}

// A body is sent with its MD5 (Content-MD5) until the target has answered a checksum it was
// sent with the same value: a server that knows checksums checks them on receipt (BadDigest
// otherwise), and the MD5 costs more CPU than the CRC (dropping it saved 0.8-1.0 s per GiB
// of large uploads on the benchmark's fake).
function skipMd5(job) {
  return Boolean(job.w.checksumAlgorithm && job.dst.checksumsEchoed);
}

function learnChecksums(job, out) {
  const algorithm = job.w.checksumAlgorithm;
  if (algorithm && out.checksum && out[field(algorithm)] === out.checksum) job.dst.checksumsEchoed = true;
}

// One PutObject, its body read where the request is sent; a file that has grown past the
// threshold since it was listed is not read whole: as changed, it is listed once more.
async function putWhole(job, file, params) {
  job.stats.count('PUT');
  const maxLength = job.split === 'whole' ? undefined : job.largeCopyThreshold;
  const checksum = job.w.checksumAlgorithm || undefined;
  const out = await job.dst.putObjectFromFile({ ...params, ...noOverwriteParams(job.w), Key: job.key }, { path: file, maxLength, checksum, noMd5: skipMd5(job) }, job.signal);
  checkAnswer(checksum, out.checksum, out, job.stats, 'PutObject');
  learnChecksums(job, out);
  job.stats.bytes += out.bytes;
  return out.bytes;
}

// A multipart upload whose every part comes from the version of the file seen here.
async function putParts(job, file, params) {
  const before = await fs.promises.stat(file);
  const expect = { size: before.size, mtimeMs: before.mtimeMs };
  const partSize = choosePartSize(before.size, job.partSize, TRANSFER_PART);
  const unchanged = async () => {
    const after = await fs.promises.stat(file);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) throw new FileChanged('changed while it was being read');
  };
  const algorithm = job.w.checksumAlgorithm || undefined;
  return multipartUpload(job, before.size, params, partSize, async ({ UploadId, PartNumber, range: [start, end], signal }) => {
    const out = await job.dst.putObjectFromFile({ Key: job.key, UploadId, PartNumber, RequestPayer: params.RequestPayer },
      { path: file, position: start, length: end - start + 1, expect, checksum: algorithm, noMd5: skipMd5(job) }, signal);
    learnChecksums(job, out);
    return algorithm ? { ETag: out.ETag, checksum: out.checksum, answer: out } : out.ETag;
  }, { beforeComplete: unchanged, algorithm });
}

module.exports = { upload, contentTypeFor };
