'use strict';
// Local file -> S3. Small files go in one PutObject with their MD5, so S3 rejects a body
// damaged on the way; larger ones as a multipart upload of MD5-checked parts. A file that
// changes while we read it is not uploaded: the object would be a mix of two versions.
const fs = require('fs');
const path = require('path');
const { localPath } = require('../stores/local-paths');
const { mergedHeaders, commonWriteParams } = require('./write-options');
const { multipartUpload, md5 } = require('./multipart-upload');
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
  const { item, src, w } = job;
  const file = localPath(src.root, item.Key);
  let fh;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch (err) {
    if (err.code === 'ENOENT') throw new ObjectError('vanished', 'deleted since it was listed');
    throw err;
  }
  try {
    const before = await fh.stat();
    const params = {
      ...mergedHeaders(null, w),
      ContentType: w.ContentType || contentTypeFor(file),
      ...commonWriteParams(w),
      Tagging: w.Tagging,
    };
    const unchanged = async () => {
      const after = await fh.stat();
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
        throw new ObjectError('changed', 'changed while it was being read');
      }
    };
    const bytes = before.size > job.largeCopyThreshold
      ? await multipartUpload(job, before.size, params, (range) => readRange(fh, range), unchanged)
      : await putWhole(job, fh, before.size, params, unchanged);
    return { status: 'copied', bytes };
  } finally {
    await fh.close();
  }
}

async function putWhole(job, fh, size, params, unchanged) {
  const body = await fh.readFile();
  if (body.length !== size) throw new ObjectError('changed', 'changed while it was being read');
  await unchanged();
  job.stats.count('PUT');
  await job.dst.putObject({ ...params, Key: job.key, Body: body, ContentLength: body.length, ContentMD5: md5(body) }, job.signal);
  job.stats.bytes += body.length;
  return body.length;
}

// Reads bytes [start, end] of the file; a file that got shorter has changed.
async function readRange(fh, [start, end]) {
  const buf = Buffer.allocUnsafe(end - start + 1);
  let done = 0;
  while (done < buf.length) {
    const { bytesRead } = await fh.read(buf, done, buf.length - done, start + done);
    if (bytesRead === 0) throw new ObjectError('changed', 'got shorter while it was being read');
    done += bytesRead;
  }
  return buf;
}

module.exports = { upload, contentTypeFor };
