'use strict';
// Each algorithm against its published check value (the checksum of "123456789"), however the
// bytes are chunked, in S3's base64 form.
const crypto = require('crypto');
const { streamChecksum, canCompute } = require('../../src/stores/content-checksum');
const { prng } = require('../generators/prng');

const b64 = (hex) => Buffer.from(hex, 'hex').toString('base64');
const CHECK = {
  CRC32: b64('cbf43926'),
  CRC32C: b64('e3069283'),
  CRC64NVME: b64('ae8b14860a799888'),
  SHA256: crypto.createHash('sha256').update('123456789').digest('base64'),
  SHA1: crypto.createHash('sha1').update('123456789').digest('base64'),
  SHA512: crypto.createHash('sha512').update('123456789').digest('base64'),
  MD5: b64('25f9e794323b453885f5181f1b624d0b'),
};
const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);

test.each(Object.keys(CHECK))(`%s: the check value, in one chunk and in drawn chunks (seed ${SEED})`, async (algorithm) => {
  const data = Buffer.from('123456789');
  expect(await streamChecksum([data], algorithm)).toBe(CHECK[algorithm]);
  const r = prng(SEED);
  for (let n = 0; n < 5; n++) {
    const chunks = [];
    for (let at = 0; at < data.length;) { const len = 1 + r.int(4); chunks.push(data.subarray(at, at + len)); at += len; }
    expect(await streamChecksum(chunks, algorithm)).toBe(CHECK[algorithm]);
  }
});

test('an algorithm it does not know is said so, never guessed', async () => {
  expect(canCompute('XXHASH64')).toBe(false);
  await expect(streamChecksum([Buffer.from('x')], 'XXHASH64')).rejects.toThrow('no implementation of XXHASH64');
});

test('the algorithm table says exactly which algorithms a file can be hashed in, and every writable one is computable', () => {
  const { TABLE } = require('../../src/stores/checksum-algorithms');
  for (const a of TABLE) {
    expect([a.name, canCompute(a.name)]).toEqual([a.name, a.compute]);
    if (a.write) expect(a.compute).toBe(true);
  }
  expect(Object.keys(CHECK).sort()).toEqual(TABLE.filter((a) => a.compute).map((a) => a.name).sort());
});
