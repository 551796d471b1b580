'use strict';
// What two objects' stored checksums (a HeadObject with checksum mode on) say about their
// bytes, without reading them. A full-object checksum (ChecksumType FULL_OBJECT: CRC64NVME
// always, CRC32 / CRC32C where the upload asked for it; any algorithm on an object written in
// one part) is the same for the same bytes whatever the part layout. A COMPOSITE one (a
// checksum of the parts' checksums, its value ending in "-N") depends on the part layout:
// two equal ones prove the same bytes, two different ones prove nothing.
const { TABLE, checksumFieldsOfHeaders } = require('./checksum-algorithms');

// [field, algorithm] in the order pairs are judged by (checksum-algorithms.js).
const CHECKSUMS = TABLE.map((a) => [a.field, a.name]);

/** The checksums a HEAD answer carries: [{algorithm, value, full}], strongest first. */
function storedChecksums(head) {
  const out = [];
  for (const [field, algorithm] of CHECKSUMS) {
    const value = head && head[field];
    if (!value) continue;
    out.push({ algorithm, value, full: head.ChecksumType !== 'COMPOSITE' && !/-\d+$/.test(value) });
  }
  return out;
}

/**
 * {same: boolean, how: 'checksum CRC64NVME'} where two HEAD answers' checksums decide; null
 * where they cannot (none in common, or composite ones that differ).
 */
function checksumVerdict(headA, headB) {
  const a = storedChecksums(headA), b = storedChecksums(headB);
  for (const x of a) {
    const y = b.find((c) => c.algorithm === x.algorithm);
    if (!y) continue;
    if (x.full && y.full) return { same: x.value === y.value, how: `checksum ${x.algorithm}` };
    if (!x.full && !y.full && x.value === y.value) return { same: true, how: `checksum ${x.algorithm}` };
  }
  return null;
}

/**
 * The full-object checksum an answer's headers (lower-case names: a GET or HEAD with checksum
 * mode on) carry, {algorithm, value}, or null: what the bytes received are checked against.
 */
function fullChecksumOfHeaders(h) {
  return storedChecksums(checksumFieldsOfHeaders(h)).find((c) => c.full) || null;
}

module.exports = { storedChecksums, checksumVerdict, fullChecksumOfHeaders, CHECKSUMS };
