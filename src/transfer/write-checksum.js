'use strict';
// The checksum every upload carries (--checksum-algorithm, CRC64NVME by default): each
// PutObject and UploadPart sends its body's checksum, which S3 checks on receipt; a multipart
// upload is created for a full-object checksum (ChecksumType FULL_OBJECT for the CRCs, whose
// part checksums combine into the whole object's: stores/crc-combine.js; COMPOSITE for SHA-1
// and SHA-256, a checksum of the parts' checksums) and completed with the value computed
// here. The value the server answers with is checked against ours: a store that kept other
// bytes than were sent fails the object. A server that answers with no checksum is counted
// (stats.checksumsUnconfirmed): the bytes then rest on Content-MD5 alone.
const crypto = require('crypto');
const { combineParts, canCombine } = require('../stores/crc-combine');
const { ObjectError } = require('../errors');
const { httpStatus } = require('../stores/s3-errors');

const { WRITABLE: ALGORITHMS, field, sentChecksum } = require('../stores/checksum-algorithms');

/** CreateMultipartUpload parameters for an upload completed with a checksum of algorithm. */
function createParams(algorithm) {
  if (!algorithm) return {};
  return { ChecksumAlgorithm: algorithm, ChecksumType: canCombine(algorithm) ? 'FULL_OBJECT' : 'COMPOSITE' };
}

/** A part as CompleteMultipartUpload lists it, with its checksum where it has one. */
function partEntry(PartNumber, ETag, algorithm, checksum) {
  return algorithm && checksum ? { PartNumber, ETag, [field(algorithm)]: checksum } : { PartNumber, ETag };
}

/**
 * The whole object's checksum from its parts' [{checksum, size}] in order: the full-object
 * CRC, or the composite "digest of the digests-N" of SHA-1 and SHA-256.
 */
function uploadChecksum(algorithm, parts) {
  if (canCombine(algorithm)) return combineParts(algorithm, parts);
  const h = crypto.createHash(algorithm.toLowerCase());
  for (const p of parts) h.update(Buffer.from(p.checksum, 'base64'));
  return `${h.digest('base64')}-${parts.length}`;
}

/** CompleteMultipartUpload parameters that send the whole object's checksum. */
function completeParams(algorithm, value) {
  if (!algorithm) return {};
  // A composite value is the server's to compute; it is checked in the answer.
  return canCombine(algorithm) ? { [field(algorithm)]: value, ChecksumType: 'FULL_OBJECT' } : {};
}

/**
 * Checks what the server answered (an SDK-shaped output) against the value computed here:
 * throws for a different value; with stats (an object's last write, not a part's), counts
 * the object confirmed or not. what: the request, for the message.
 */
function checkAnswer(algorithm, sent, answer, stats, what) {
  if (!algorithm) return;
  const got = answer && answer[field(algorithm)];
  if (!got) {
    if (stats) stats.checksumsUnconfirmed++;
    return;
  }
  // A composite value may come with or without its "-N".
  const same = got === sent || (!canCombine(algorithm) && got.replace(/-\d+$/, '') === sent.replace(/-\d+$/, ''));
  if (!same) throw new ObjectError('failed', `${what}: the server stored ${algorithm} ${got} where the bytes sent have ${sent}`);
  if (stats) stats.checksumsConfirmed++;
}

/**
 * Confirms a completed multipart upload's checksum: by CompleteMultipartUpload's answer, or,
 * where that carries none (moto, which then stores a CRC32 labelled as the algorithm asked
 * for), by a HeadObject of what was completed (checksum mode on, If-Match its ETag). A
 * stored value that differs fails the object: it is written, but with a checksum every
 * later check of it would trip on.
 */
async function confirmCompleted(algorithm, whole, done, { store, key, stats, signal }) {
  if (!algorithm) return;
  if (done && done[field(algorithm)]) { checkAnswer(algorithm, whole, done, stats, 'CompleteMultipartUpload'); return; }
  const head = await headWritten(store, key, done && done.ETag, stats, signal);
  try {
    checkAnswer(algorithm, whole, head, stats, 'the completed upload');
  } catch (err) {
    throw new ObjectError('failed', `${err.message} (the object is written, with that checksum; another --checksum-algorithm, or none, suits this server)`);
  }
}

/**
 * A HeadObject (checksum mode on, counted) of an object this run has just written, as the
 * ETag it was written with; null where the target may be written but not read (403, a
 * policy with s3:PutObject only): its checksum cannot be asked.
 */
async function headWritten(store, key, etag, stats, signal) {
  if (stats) stats.count('HEAD');
  try {
    return await store.headObject({ Key: key, IfMatch: etag || undefined, ChecksumMode: 'ENABLED' }, signal);
  } catch (err) {
    if (httpStatus(err) !== 403) throw err;
    return null;
  }
}

module.exports = { ALGORITHMS, field, sentChecksum, headWritten, createParams, partEntry, uploadChecksum, completeParams, checkAnswer, confirmCompleted };
