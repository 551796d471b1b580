'use strict';
// The CRC of two byte strings joined, from the CRC of each and the second one's length:
// how the full-object checksum of a multipart upload is had from its parts' checksums,
// which are computed apart (and in any order) where each part is read. The method is
// zlib's crc32_combine (multiplication by x^(8n) modulo the polynomial, in the reflected
// bit order these CRCs use), in BigInt so one routine serves the 32- and 64-bit CRCs; it
// costs some thousands of BigInt operations per part, nothing beside the part's bytes.

// Reflected polynomials and widths of the CRCs S3 can store as full-object checksums.
const CRCS = {
  CRC32: { width: 32, poly: 0xEDB88320n },
  CRC32C: { width: 32, poly: 0x82F63B78n },
  CRC64NVME: { width: 64, poly: 0x9A6C9329AC4BC9B5n },
};

const tables = new Map(); // algorithm -> x^(2^k) mod p for k = 0..63

// a(x) * b(x) modulo p(x), both in reflected order (the top bit is x^0).
function multiply(a, b, { width, poly }) {
  let m = 1n << BigInt(width - 1);
  let p = 0n;
  while (m) {
    if (a & m) p ^= b;
    m >>= 1n;
    b = b & 1n ? (b >> 1n) ^ poly : b >> 1n;
  }
  return p;
}

function powers(algorithm) {
  let t = tables.get(algorithm);
  if (t) return t;
  const c = CRCS[algorithm];
  t = [];
  let p = 1n << BigInt(c.width - 2); // x^1
  for (let k = 0; k < 64; k++) { t.push(p); p = multiply(p, p, c); }
  tables.set(algorithm, t);
  return t;
}

// x^(8 * bytes) modulo p.
function shiftFor(algorithm, bytes) {
  const c = CRCS[algorithm];
  const t = powers(algorithm);
  let p = 1n << BigInt(c.width - 1); // x^0
  let n = BigInt(bytes);
  for (let k = 3; n; k++, n >>= 1n) if (n & 1n) p = multiply(t[k], p, c);
  return p;
}

const toBig = (b64) => BigInt('0x' + (Buffer.from(b64, 'base64').toString('hex') || '0'));
const toB64 = (v, width) => Buffer.from(v.toString(16).padStart(width / 4, '0'), 'hex').toString('base64');

/** Whether full-object checksums of this algorithm can be combined from parts. */
const canCombine = (algorithm) => Object.prototype.hasOwnProperty.call(CRCS, algorithm);

/**
 * The checksum (base64, as S3 prints it) of the bytes of parts laid end to end, from
 * [{checksum (base64), size (bytes)}] in order.
 */
function combineParts(algorithm, parts) {
  const c = CRCS[algorithm];
  if (!c) throw new Error(`${algorithm} checksums cannot be combined`);
  if (!parts.length) throw new Error('no parts to combine');
  let crc = toBig(parts[0].checksum);
  for (let i = 1; i < parts.length; i++) crc = multiply(shiftFor(algorithm, parts[i].size), crc, c) ^ toBig(parts[i].checksum);
  return toB64(crc, c.width);
}

module.exports = { combineParts, canCombine };
