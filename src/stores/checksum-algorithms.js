'use strict';
// Every checksum algorithm S3 stores (the SDK's ChecksumAlgorithm, 2026), in the order a
// pair is judged by when both carry several, with what s3blitz can do with each:
// - write: --checksum-algorithm may choose it for uploads (the ones every test server takes);
// - compute: a local file can be hashed in it (content-checksum.js), so a file is verified
//   against an object that stores it. XXHASH* have no implementation here: objects that
//   store only those are judged stored-against-stored, never against a file.
// S3 prints every value as base64 of the big-endian checksum or digest.
const TABLE = [
  { name: 'CRC64NVME', write: true, compute: true },
  { name: 'CRC32C', write: true, compute: true },
  { name: 'CRC32', write: true, compute: true },
  { name: 'SHA256', write: true, compute: true },
  { name: 'SHA1', write: true, compute: true },
  { name: 'SHA512', write: false, compute: true },
  { name: 'MD5', write: false, compute: true },
  { name: 'XXHASH3', write: false, compute: false },
  { name: 'XXHASH64', write: false, compute: false },
  { name: 'XXHASH128', write: false, compute: false },
].map((a) => ({ ...a, field: `Checksum${a.name}`, header: `x-amz-checksum-${a.name.toLowerCase()}` }));

const BY_NAME = new Map(TABLE.map((a) => [a.name, a]));

/** The SDK's output field of an algorithm's value: ChecksumCRC64NVME. */
const field = (name) => BY_NAME.get(name).field;

/** The header that carries an algorithm's value: x-amz-checksum-crc64nvme. */
const header = (name) => BY_NAME.get(name).header;

/**
 * The parameters that send a body's checksum with PutObject or UploadPart (the value, and
 * the algorithm's name, which some servers need beside it); none without a value.
 */
const sentChecksum = (name, value) => (value ? { [field(name)]: value, ChecksumAlgorithm: name } : {});

/** The names --checksum-algorithm takes. */
const WRITABLE = TABLE.filter((a) => a.write).map((a) => a.name);

/**
 * An answer's checksum headers (lower-case names: HeadObject, GetObject, PutObject,
 * UploadPart) as the SDK's output fields, ChecksumType included; only those present.
 */
function checksumFieldsOfHeaders(h) {
  const out = {};
  for (const a of TABLE) if (h[a.header]) out[a.field] = h[a.header];
  if (h['x-amz-checksum-type']) out.ChecksumType = h['x-amz-checksum-type'];
  return out;
}

module.exports = { TABLE, WRITABLE, field, header, sentChecksum, checksumFieldsOfHeaders };
