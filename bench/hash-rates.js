'use strict';
// Hash rates of one core for each algorithm s3blitz computes (src/stores/content-checksum.js),
// over 64 MiB of random bytes in chunks the size sockets and file reads hand over:
//   node bench/hash-rates.js
// Prints GiB/s per algorithm and chunk size.
const crypto = require('crypto');
const { newChecksum } = require('../src/stores/content-checksum');
const { TABLE } = require('../src/stores/checksum-algorithms');

const buf = crypto.randomBytes(64 << 20);
for (const a of TABLE.filter((x) => x.compute)) {
  const rates = [];
  for (const chunk of [16 << 10, 64 << 10, 1 << 20]) {
    const h = newChecksum(a.name);
    for (let o = 0; o < 8 << 20; o += chunk) h.update(buf.subarray(o, o + chunk)); // warm up
    const t = process.hrtime.bigint();
    for (let r = 0; r < 2; r++) for (let o = 0; o < buf.length; o += chunk) h.update(buf.subarray(o, o + chunk));
    rates.push(`${chunk >> 10} KiB: ${((2 * 64) / 1024 / (Number(process.hrtime.bigint() - t) / 1e9)).toFixed(2)}`);
  }
  console.log(`${a.name.padEnd(10)} GiB/s  ${rates.join('  ')}`);
}
