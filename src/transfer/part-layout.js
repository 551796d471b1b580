'use strict';
// Multipart part sizes: S3 wants parts of 5 MiB..5 GiB (the last may be smaller) and at
// most 10,000 of them.
const { OPTIONS, MiB, GiB, parseSize, parseOption } = require('../options');

// S3's limits for a part: the options table's range of --part-size.
const MIN_PART = OPTIONS.partSize.min;
const MAX_PART = OPTIONS.partSize.max;
const MAX_PARTS = 10000;
const MAX_SINGLE_COPY = 5 * GiB; // CopyObject's limit
const DEFAULT_PART = 64 * MiB; // server-side copies: no bytes pass through here
// Uploads and downloads: every part in flight is buffered (uploads) or one stream (downloads);
// 16 MiB keeps memory low and gives a 256 MiB object 16 parts to run in parallel.
const TRANSFER_PART = 16 * MiB;

// Byte ranges [start, end] (inclusive) for an object of `size` bytes.
function partRanges(size, partSize) {
  const out = [];
  for (let start = 0; start < size; start += partSize) out.push([start, Math.min(size, start + partSize) - 1]);
  if (size === 0) out.push([0, -1]);
  return out;
}

// Part size for a new multipart upload: the requested size (or the default), raised so the
// object fits in 10,000 parts, kept within S3's limits.
function choosePartSize(size, requested, fallback = DEFAULT_PART) {
  let p = requested || fallback;
  if (requested) parseOption('partSize', requested); // a job built by hand (tests): the table's range
  const needed = Math.ceil(size / MAX_PARTS);
  if (p < needed) p = Math.ceil(needed / MiB) * MiB;
  return Math.min(Math.max(p, MIN_PART), MAX_PART);
}

// "etag-N" marks a multipart upload of N parts.
function multipartCount(etag) {
  const m = /-(\d+)"?$/.exec(etag || '');
  return m ? Number(m[1]) : 0;
}

module.exports = { MiB, GiB, MIN_PART, MAX_PART, MAX_PARTS, MAX_SINGLE_COPY, DEFAULT_PART, TRANSFER_PART, parseSize, partRanges, choosePartSize, multipartCount };
