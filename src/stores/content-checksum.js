'use strict';
// A stream's checksum in one of S3's algorithms, as S3 reports it (base64 of the big-endian
// value, or of the digest): what a local file is compared by against an object's stored
// full-object checksum, so a backup is verified without reading it back from S3.
//
// Implementations chosen by measurement on this 2-core machine (GiB/s of one core, 64 MiB
// in 1 MiB chunks): CRC32 with zlib.crc32 (native, 4.1); SHA-256 and SHA-1 with node:crypto
// (native, 1.6; SHA-512 and MD5 0.7); CRC64NVME and CRC32C in WebAssembly (crc-wasm.js, 1.0-1.4; the SDK's
// JavaScript does 0.3-0.4; `node bench/hash-rates.js`). Uploads and downloads hash every
// byte with these where the request is sent (the request thread), as the bytes go out or
// arrive.
const crypto = require('crypto');
const zlib = require('zlib');
const { WasmCrc } = require('./crc-wasm');

const int32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32BE(v >>> 0); return b; };

const MAKERS = {
  CRC64NVME: () => wasmHash('CRC64NVME'),
  CRC32C: () => wasmHash('CRC32C'),
  CRC32: () => { let c = 0; return { update: (b) => { c = zlib.crc32(b, c); }, digest: async () => int32(c) }; },
  SHA256: () => nodeHash('sha256'),
  SHA1: () => nodeHash('sha1'),
  SHA512: () => nodeHash('sha512'),
  MD5: () => nodeHash('md5'),
};

function wasmHash(algorithm) {
  const h = new WasmCrc(algorithm);
  return { update: (b) => h.update(b), digest: async () => h.digest() };
}

function nodeHash(name) {
  const h = crypto.createHash(name);
  return { update: (b) => h.update(b), digest: async () => h.digest() };
}

/** Whether streamChecksum computes this algorithm. */
const canCompute = (algorithm) => Object.prototype.hasOwnProperty.call(MAKERS, algorithm);

/** A running checksum: update(buffer) as bytes come, in order; await digest() -> Buffer. */
function newChecksum(algorithm) {
  if (!canCompute(algorithm)) throw new Error(`no implementation of ${algorithm}`);
  return MAKERS[algorithm]();
}

/** The checksum of a stream's bytes (chunks of Buffers), base64, as S3 prints it. */
async function streamChecksum(stream, algorithm) {
  const h = newChecksum(algorithm);
  for await (const chunk of stream) h.update(chunk);
  return (await h.digest()).toString('base64');
}

/** The checksum of one buffer, base64. */
const bufferChecksum = (buf, algorithm) => streamChecksum([buf], algorithm);

/** The request header that carries a checksum of this algorithm (x-amz-checksum-crc64nvme). */
const checksumHeader = (algorithm) => `x-amz-checksum-${algorithm.toLowerCase()}`;

module.exports = { streamChecksum, bufferChecksum, newChecksum, checksumHeader, canCompute };
