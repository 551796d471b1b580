'use strict';
// The WebAssembly CRCs against the SDK's own JavaScript ones (the reference: what the SDK
// computes is what S3 computes), on drawn bytes fed in drawn pieces: lengths around the
// 8-byte step and the 1 MiB window, so every path of the loop (words, tail bytes, window
// slices) is crossed.
const { WasmCrc, WASM_CRCS } = require('../../src/stores/crc-wasm');
const { Crc64NvmeJs, Crc32cJs } = require('@aws-sdk/checksums/crc');
const { prng } = require('../generators/prng');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
const REFERENCE = { CRC64NVME: () => new Crc64NvmeJs(), CRC32C: () => new Crc32cJs() };

test.each(WASM_CRCS)(`%s equals the SDK's JavaScript on drawn bytes in drawn pieces (seed ${SEED})`, async (algorithm) => {
  const r = prng(SEED);
  for (let n = 0; n < 25; n++) {
    const size = r.pick([r.int(17), r.int(5000), (1 << 20) - 8 + r.int(17), r.int(3 << 20)]);
    const data = r.bytes(size);
    const ours = new WasmCrc(algorithm);
    for (let at = 0; at < size;) {
      const len = r.pick([1, 7, 8, 9, r.int(100000), size]);
      ours.update(data.subarray(at, at + len));
      at += len;
    }
    const ref = REFERENCE[algorithm]();
    ref.update(data);
    expect({ size, value: ours.digest().toString('hex') }).toEqual({ size, value: Buffer.from(await ref.digest()).toString('hex') });
  }
});

test('two running checksums of one algorithm do not disturb each other (they share one module)', () => {
  const a = new WasmCrc('CRC64NVME'), b = new WasmCrc('CRC64NVME');
  a.update(Buffer.from('1234')); b.update(Buffer.from('abc')); a.update(Buffer.from('56789'));
  expect(a.digest().toString('hex')).toBe('ae8b14860a799888');
});
