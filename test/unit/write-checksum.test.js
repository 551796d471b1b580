'use strict';
// What an upload does with the server's answer about its checksum: the same value confirms the
// object, another value fails it (the store kept other bytes than were sent), no value is
// counted as unconfirmed. A composite value (SHA-1, SHA-256 of parts) compares with or without
// its "-N". And the composite value itself: the SHA of the parts' SHAs, as S3 documents it.
const crypto = require('crypto');
const wc = require('../../src/transfer/write-checksum');
const { RequestStats } = require('../../src/stats');
const { ObjectError } = require('../../src/errors');

test('the same value confirms, none is counted, another fails the object and names both values', () => {
  const stats = new RequestStats();
  wc.checkAnswer('CRC64NVME', 'AAAAAAAAAAE=', { ChecksumCRC64NVME: 'AAAAAAAAAAE=' }, stats, 'PutObject');
  wc.checkAnswer('CRC64NVME', 'AAAAAAAAAAE=', { ETag: '"x"' }, stats, 'PutObject');
  wc.checkAnswer('CRC64NVME', 'AAAAAAAAAAE=', undefined, stats, 'PutObject');
  expect(stats.toJSON()).toMatchObject({ checksumsConfirmed: 1, checksumsUnconfirmed: 2 });
  let err;
  try { wc.checkAnswer('CRC64NVME', 'AAAAAAAAAAE=', { ChecksumCRC64NVME: 'AAAAAAAAAAI=' }, stats, 'CompleteMultipartUpload'); } catch (e) { err = e; }
  expect(err).toBeInstanceOf(ObjectError);
  expect(err.message).toBe('CompleteMultipartUpload: the server stored CRC64NVME AAAAAAAAAAI= where the bytes sent have AAAAAAAAAAE=');
  // A part's answer (no stats) is checked, not counted.
  expect(() => wc.checkAnswer('CRC32', 'AAAAAQ==', { ChecksumCRC32: 'AAAAAg==' }, null, 'part 2')).toThrow('part 2');
  expect(stats.toJSON()).toMatchObject({ checksumsConfirmed: 1, checksumsUnconfirmed: 2 });
  // No algorithm: nothing to check, nothing counted.
  wc.checkAnswer(null, undefined, {}, stats, 'PutObject');
  expect(stats.toJSON().checksumsUnconfirmed).toBe(2);
});

test('a composite value compares with or without its part count; a full-object one exactly', () => {
  expect(() => wc.checkAnswer('SHA256', 'abc=-3', { ChecksumSHA256: 'abc=' }, null, 'x')).not.toThrow();
  expect(() => wc.checkAnswer('SHA256', 'abc=-3', { ChecksumSHA256: 'abd=-3' }, null, 'x')).toThrow('stored SHA256');
  expect(() => wc.checkAnswer('CRC32', 'AAAAAQ==', { ChecksumCRC32: 'AAAAAQ==-1' }, null, 'x')).toThrow('stored CRC32');
});

test('multipart uploads: CRCs as FULL_OBJECT (the combined value sent at Complete), SHAs as COMPOSITE', () => {
  expect(wc.createParams('CRC32C')).toEqual({ ChecksumAlgorithm: 'CRC32C', ChecksumType: 'FULL_OBJECT' });
  expect(wc.createParams('SHA1')).toEqual({ ChecksumAlgorithm: 'SHA1', ChecksumType: 'COMPOSITE' });
  expect(wc.createParams(null)).toEqual({});
  expect(wc.completeParams('CRC32', 'AAAAAQ==')).toEqual({ ChecksumCRC32: 'AAAAAQ==', ChecksumType: 'FULL_OBJECT' });
  expect(wc.completeParams('SHA256', 'x-2')).toEqual({});
  const parts = [Buffer.from('first part'), Buffer.from('second')];
  const digest = (b) => crypto.createHash('sha256').update(b).digest();
  const want = crypto.createHash('sha256').update(Buffer.concat(parts.map(digest))).digest('base64') + '-2';
  expect(wc.uploadChecksum('SHA256', parts.map((b) => ({ checksum: digest(b).toString('base64'), size: b.length })))).toBe(want);
  expect(wc.partEntry(3, '"e"', 'SHA1', 'v')).toEqual({ PartNumber: 3, ETag: '"e"', ChecksumSHA1: 'v' });
  expect(wc.partEntry(3, '"e"', null, undefined)).toEqual({ PartNumber: 3, ETag: '"e"' });
});
