'use strict';
// A multipart upload's full-object CRC is had from its parts' CRCs: checked against the CRC
// of the whole bytes computed in one pass (the SDK's and zlib's code, not ours), on drawn
// bytes cut into drawn parts, empty and one-byte parts included.
const { combineParts, canCombine } = require('../../src/stores/crc-combine');
const { streamChecksum } = require('../../src/stores/content-checksum');
const { prng } = require('../generators/prng');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);

test.each(['CRC32', 'CRC32C', 'CRC64NVME'])(`%s of drawn parts equals the CRC of the whole (seed ${SEED})`, async (algorithm) => {
  const r = prng(SEED);
  for (let n = 0; n < 12; n++) {
    const size = r.int(3) === 0 ? r.int(40) : r.int(300000);
    const data = Buffer.alloc(size);
    for (let i = 0; i < size; i++) data[i] = r.int(256);
    const parts = [];
    for (let at = 0; at <= size;) {
      const len = r.int(4) === 0 ? r.int(3) : r.int(size + 1);
      const bytes = data.subarray(at, at + len);
      parts.push({ checksum: await streamChecksum([bytes], algorithm), size: bytes.length });
      at += len;
      if (at >= size) break;
    }
    expect(combineParts(algorithm, parts)).toBe(await streamChecksum([data], algorithm));
  }
});

test('one part is its own checksum; SHA and unknown algorithms are refused, never guessed', () => {
  expect(combineParts('CRC64NVME', [{ checksum: 'HZmeJm31aCo=', size: 6 << 20 }])).toBe('HZmeJm31aCo=');
  expect(canCombine('SHA256')).toBe(false);
  expect(() => combineParts('SHA256', [{ checksum: 'x', size: 1 }])).toThrow('cannot be combined');
  expect(() => combineParts('CRC32', [])).toThrow('no parts');
});

test('a value S3 (MinIO) computed: 6 MiB of 0x07 as 5 MiB + 1 MiB parts', async () => {
  const part = (n) => streamChecksum([Buffer.alloc(n, 7)], 'CRC64NVME');
  expect(combineParts('CRC64NVME', [{ checksum: await part(5 << 20), size: 5 << 20 }, { checksum: await part(1 << 20), size: 1 << 20 }])).toBe('HZmeJm31aCo=');
});
