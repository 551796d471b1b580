'use strict';
// Stored checksums decide a pair only where they stand for the whole object's bytes (full
// ones, of the same algorithm), or where two composite ones are equal; anything else is no
// verdict, never a guess.
const { storedChecksums, checksumVerdict } = require('../../src/stores/stored-checksum');

const full = (v, alg = 'CRC64NVME') => ({ [`Checksum${alg}`]: v, ChecksumType: 'FULL_OBJECT' });
const composite = (v, alg = 'CRC32') => ({ [`Checksum${alg}`]: `${v}-3`, ChecksumType: 'COMPOSITE' });

test.each([
  ['full, equal', full('AAA='), full('AAA='), { same: true, how: 'checksum CRC64NVME' }],
  ['full, different', full('AAA='), full('BBB='), { same: false, how: 'checksum CRC64NVME' }],
  ['full CRC32 against full CRC32', full('x', 'CRC32'), full('y', 'CRC32'), { same: false, how: 'checksum CRC32' }],
  ['different algorithms', full('x', 'CRC32'), full('x', 'CRC32C'), null],
  ['composite, equal', composite('q'), composite('q'), { same: true, how: 'checksum CRC32' }],
  ['composite, different (another part layout, perhaps)', composite('q'), composite('r'), null],
  ['full against composite of one algorithm', full('q', 'CRC32'), composite('q'), null],
  ['one side without any', full('AAA='), {}, null],
  ['no type given, a value with a part count', { ChecksumCRC32C: 'abc=-2' }, { ChecksumCRC32C: 'abc=' }, null],
  ['no type given, plain values (a single-part object)', { ChecksumSHA256: 'h1' }, { ChecksumSHA256: 'h2' }, { same: false, how: 'checksum SHA256' }],
])('%s', (_, a, b, want) => {
  expect(checksumVerdict(a, b)).toEqual(want);
  expect(checksumVerdict(b, a)).toEqual(want);
});

test('the strongest shared algorithm decides when a HEAD carries several', () => {
  const a = { ChecksumCRC32: 'c1', ChecksumCRC64NVME: 'n1', ChecksumType: 'FULL_OBJECT' };
  const b = { ChecksumCRC32: 'c1', ChecksumCRC64NVME: 'n2', ChecksumType: 'FULL_OBJECT' };
  expect(storedChecksums(a).map((c) => c.algorithm)).toEqual(['CRC64NVME', 'CRC32']);
  expect(checksumVerdict(a, b)).toEqual({ same: false, how: 'checksum CRC64NVME' });
});

test("2026's algorithms (SHA512, MD5, XXHASH*) decide stored against stored, from SDK fields and from a lean answer's headers alike", () => {
  const { fullChecksumOfHeaders } = require('../../src/stores/stored-checksum');
  const { checksumFieldsOfHeaders } = require('../../src/stores/checksum-algorithms');
  for (const alg of ['SHA512', 'MD5', 'XXHASH3', 'XXHASH64', 'XXHASH128']) {
    const headers = { [`x-amz-checksum-${alg.toLowerCase()}`]: 'v1', 'x-amz-checksum-type': 'FULL_OBJECT' };
    const fields = checksumFieldsOfHeaders(headers);
    expect(fields).toEqual({ [`Checksum${alg}`]: 'v1', ChecksumType: 'FULL_OBJECT' });
    expect(fullChecksumOfHeaders(headers)).toEqual({ algorithm: alg, value: 'v1', full: true });
    expect(checksumVerdict(fields, full('v1', alg))).toEqual({ same: true, how: `checksum ${alg}` });
    expect(checksumVerdict(fields, full('v2', alg))).toEqual({ same: false, how: `checksum ${alg}` });
  }
});

test('--checksum-algorithm refuses, by name, an algorithm s3blitz reads but does not write, and one S3 does not have', () => {
  const { normalizeWriteOptions } = require('../../src/transfer/write-options');
  expect(() => normalizeWriteOptions({ checksumAlgorithm: 'sha512' })).toThrow(/SHA512: s3blitz reads and compares it .* writes only CRC64NVME/);
  expect(() => normalizeWriteOptions({ checksumAlgorithm: 'crc16' })).toThrow(/must be one of .* not "crc16"/);
  expect(normalizeWriteOptions({ checksumAlgorithm: 'crc32c' }).checksumAlgorithm).toBe('CRC32C');
});
