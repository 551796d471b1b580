'use strict';
// Every download is checked against the object's stored full-object checksum: whole GETs by
// the answer's own checksum, ranged downloads by their ranges' checksums combined. Bytes
// changed in flight (a proxy that flips one byte of chosen answers) fail the object and leave
// neither the file nor a temporary one; objects with no full-object checksum are counted as
// unchecked. Sizes, which objects are damaged and which range are drawn from a seed; the
// expected files are the bytes written, compared byte for byte.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { PutObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, s3client, libOptions, connection } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { prng } = require('../generators/prng');
const s3blitz = require('../..');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`download-checksums seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
const MiB = 1024 * 1024;
const PART = 5 * MiB;

let proxy;
afterAll(async () => { if (proxy) await proxy.close(); });

test(`downloads are checked against stored checksums; damaged bytes fail the object and leave no file (seed ${SEED})`, async () => {
  const r = prng(SEED);
  const bucket = await createBucket();
  const bodies = {};
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dlck-src-'));
  for (let i = 0; i < 6; i++) {
    const size = i < 2 ? PART + 1 + r.int(2 * PART) : 1 + r.int(200000); // two ranged downloads at least
    bodies[`o${i}.bin`] = r.bytes(size);
    fs.writeFileSync(path.join(src, `o${i}.bin`), bodies[`o${i}.bin`]);
  }
  // Uploaded by s3blitz (CRC64NVME, full-object, multipart above 5 MiB) ...
  const up = await s3blitz.copy({ ...libOptions(), source: src, target: `s3://${bucket}/`, largeCopyThreshold: '5MiB', partSize: '5MiB', journal: false });
  expect(up.stats.checksumsConfirmed).toBe(6);
  // ... and one written with no checksum: downloaded unchecked.
  bodies['plain.bin'] = r.bytes(1 + r.int(50000));
  await s3client().send(new PutObjectCommand({ Bucket: bucket, Key: 'plain.bin', Body: bodies['plain.bin'] }));

  // Damage one whole GET and one range of a ranged download, drawn.
  const small = `o${2 + r.int(4)}.bin`;
  const ranged = `o${r.int(2)}.bin`;
  const rangeStart = String(PART * r.int(Math.ceil(bodies[ranged].length / PART)));
  proxy = await startFaultProxy({
    target: connection().endpoint,
    alterBody: (info) => info.type === 'GET' && (info.key === small || (info.key === ranged && (info.headers.range || '').startsWith(`bytes=${rangeStart}-`))),
  });
  const run = async (endpointUrl) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dlck-'));
    const out = await s3blitz.copy({ ...libOptions(), endpointUrl, source: `s3://${bucket}/`, target: dir, largeCopyThreshold: '5MiB', partSize: '5MiB', journal: false });
    return { out, dir };
  };

  const clean = await run(connection().endpoint);
  expect(clean.out.failed.objects).toBe(0);
  expect(clean.out.stats).toMatchObject({ checksumsConfirmed: 6, checksumsUnconfirmed: 1 });
  for (const [key, body] of Object.entries(bodies)) expect(fs.readFileSync(path.join(clean.dir, key)).equals(body)).toBe(true);

  const failures = [];
  const damaged = await (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dlck-'));
    const out = await s3blitz.copy({
      ...libOptions(), endpointUrl: proxy.endpoint, source: `s3://${bucket}/`, target: dir, largeCopyThreshold: '5MiB', partSize: '5MiB', journal: false,
      onObject: (o) => { if (o.status === 'failed') failures.push(o); },
    });
    return { out, dir };
  })();
  expect(proxy.stats().injected.altered).toBeGreaterThanOrEqual(2);
  expect(damaged.out.failed.objects).toBe(2);
  expect(failures.map((f) => f.key).sort()).toEqual([ranged, small].sort());
  for (const f of failures) expect(f.reason).toMatch(/the bytes received have CRC64NVME \S+ where the object's stored checksum is \S+: not written/);
  // Nothing of the damaged objects is left, not even a temporary file; the rest arrived whole.
  expect(fs.readdirSync(damaged.dir).sort()).toEqual(Object.keys(bodies).filter((k) => k !== small && k !== ranged).sort());
  for (const key of fs.readdirSync(damaged.dir)) expect(fs.readFileSync(path.join(damaged.dir, key)).equals(bodies[key])).toBe(true);
});
