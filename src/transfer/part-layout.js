'use strict';
// Multipart part sizes: S3 wants parts of 5 MiB..5 GiB (the last may be smaller) and at
// most 10,000 of them.
const { UsageError } = require('../errors');

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const MIN_PART = 5 * MiB;
const MAX_PART = 5 * GiB;
const MAX_PARTS = 10000;
const MAX_SINGLE_COPY = 5 * GiB; // CopyObject's limit
const DEFAULT_PART = 64 * MiB; // server-side copies: no bytes pass through here
// Uploads and downloads: every part in flight is buffered (uploads) or one stream (downloads);
// 16 MiB keeps memory low and gives a 256 MiB object 16 parts to run in parallel.
const TRANSFER_PART = 16 * MiB;

// Parses sizes such as "5MiB", "64MB", "1G", "1048576".
function parseSize(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new UsageError(`${name} must be a size such as 64MiB, not ${value}`);
    return Math.floor(value);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$/i.exec(String(value));
  if (!m) throw new UsageError(`${name} must be a size such as 64MiB, not ${JSON.stringify(String(value))}`);
  const unit = { '': 1, k: 1024, m: MiB, g: GiB, t: 1024 * GiB, p: 1024 * 1024 * GiB }[m[2].toLowerCase()];
  return Math.floor(Number(m[1]) * unit);
}

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
  if (requested && (requested < MIN_PART || requested > MAX_PART)) {
    throw new UsageError(`--part-size must be between 5MiB and 5GiB, not ${requested}`);
  }
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
