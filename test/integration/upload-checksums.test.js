'use strict';
// Every upload sends a checksum (CRC64NVME unless --checksum-algorithm says otherwise) and has
// the stored value confirmed. Each object's stored checksum, read back with the SDK (HEAD,
// checksum mode on), must be the one computed here from the local bytes: one pass over the
// whole file for a full-object checksum (single-part objects, and the CRCs of multipart
// ones), the SHA of the parts' SHAs for a multipart SHA-1 or SHA-256. File sizes are drawn
// around the part boundary from a seed; files and stdin streams alike.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { HeadObjectCommand, ListObjectsV2Command } = require('@aws-sdk/client-s3');
const { createBucket, s3client, libOptions, runCli } = require('../helpers/s3env');
const { prng } = require('../generators/prng');
const { streamChecksum } = require('../../src/stores/content-checksum');
const s3blitz = require('../..');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`upload-checksums seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
const MiB = 1024 * 1024;
const PART = 5 * MiB;

// A size drawn around what decides the layout: empty, tiny, just under, at and over one part.
function drawSize(r) {
  return r.pick([0, 1 + r.int(4096), PART - 1 - r.int(64), PART, PART + 1 + r.int(64), PART + r.int(2 * PART)]);
}

// What S3 stores for these bytes uploaded in parts of PART bytes (none: single-part).
async function expected(body, algorithm, multipart) {
  if (!multipart || algorithm.startsWith('CRC')) return streamChecksum([body], algorithm);
  const h = crypto.createHash(algorithm === 'SHA256' ? 'sha256' : 'sha1');
  let n = 0;
  for (let at = 0; at < body.length; at += PART, n++) {
    h.update(crypto.createHash(algorithm === 'SHA256' ? 'sha256' : 'sha1').update(body.subarray(at, at + PART)).digest());
  }
  return `${h.digest('base64')}-${n}`;
}

async function stored(bucket, key) {
  const h = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }));
  return Object.fromEntries(Object.entries(h).filter(([f]) => /^Checksum(CRC|SHA)/.test(f)));
}

test(`files: each algorithm's stored checksum is the local file's, single-part and multipart (seed ${SEED})`, async () => {
  const r = prng(SEED);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-upck-'));
  const files = {};
  for (let i = 0; i < 5; i++) {
    files[`f${i}.bin`] = r.bytes(drawSize(r));
    fs.writeFileSync(path.join(dir, `f${i}.bin`), files[`f${i}.bin`]);
  }
  const bucket = await createBucket();
  // The default through the CLI (no flag); each other algorithm through the library, one
  // spelled in lower case through the CLI.
  const cli = await runCli(['cp', dir, `s3://${bucket}/default/`, '--large-copy-threshold', '5MiB', '--part-size', '5MiB', '--json', '--no-journal']);
  expect(cli.stderr).toBe('');
  expect(JSON.parse(cli.stdout).stats).toMatchObject({ checksumsConfirmed: 5, checksumsUnconfirmed: 0 });
  const lower = await runCli(['cp', dir, `s3://${bucket}/CRC32C/`, '--checksum-algorithm', 'crc32c', '--large-copy-threshold', '5MiB', '--part-size', '5MiB', '--no-journal']);
  expect(lower.code).toBe(0);
  for (const algorithm of ['CRC32', 'SHA256', 'SHA1', 'none']) {
    const out = await s3blitz.copy({ ...libOptions(), source: dir, target: `s3://${bucket}/${algorithm}/`, checksumAlgorithm: algorithm, largeCopyThreshold: '5MiB', partSize: '5MiB', journal: false });
    expect(out.failed.objects).toBe(0);
    const st = out.stats;
    if (algorithm === 'none') expect(st.checksumsConfirmed).toBeUndefined();
    else expect(st).toMatchObject({ checksumsConfirmed: 5, checksumsUnconfirmed: 0 });
  }
  for (const [name, body] of Object.entries(files)) {
    const multipart = body.length > PART;
    for (const [prefix, algorithm] of [['default', 'CRC64NVME'], ['CRC32C', 'CRC32C'], ['CRC32', 'CRC32'], ['SHA256', 'SHA256'], ['SHA1', 'SHA1']]) {
      expect({ name, size: body.length, prefix, got: await stored(bucket, `${prefix}/${name}`) })
        .toEqual({ name, size: body.length, prefix, got: { [`Checksum${algorithm}`]: await expected(body, algorithm, multipart) } });
    }
    expect(await stored(bucket, `none/${name}`)).toEqual({});
  }
});

test(`stdin: a stream of drawn length carries its checksum, in one PutObject or in parts (seed ${SEED})`, async () => {
  const r = prng(SEED + 1);
  const bucket = await createBucket();
  for (const algorithm of ['CRC64NVME', 'SHA1']) {
    const body = r.bytes(r.pick([1 + r.int(1000), PART + 1 + r.int(PART)]));
    const res = await runCli(['cp', '-', `s3://${bucket}/${algorithm}`, '--checksum-algorithm', algorithm, '--part-size', '5MiB'], { input: body });
    expect(res.stderr).toBe('');
    expect(await stored(bucket, algorithm)).toEqual({ [`Checksum${algorithm}`]: await expected(body, algorithm, body.length > PART) });
  }
});

test('an algorithm that is not one, or one s3blitz does not write, is refused before anything is written', async () => {
  const bucket = await createBucket();
  const res = await runCli(['cp', '-', `s3://${bucket}/x`, '--checksum-algorithm', 'crc16'], { input: Buffer.from('x') });
  expect(res.code).toBe(2);
  expect(res.stderr.trim()).toBe('s3blitz: --checksum-algorithm must be one of CRC64NVME, CRC32C, CRC32, SHA256, SHA1 or none, not "crc16"');
  const md5 = await runCli(['cp', '-', `s3://${bucket}/x`, '--checksum-algorithm', 'md5'], { input: Buffer.from('x') });
  expect(md5.code).toBe(2);
  expect(md5.stderr.trim()).toBe('s3blitz: --checksum-algorithm MD5: s3blitz reads and compares it where objects store it, but writes only CRC64NVME, CRC32C, CRC32, SHA256, SHA1 (the ones it has been tried against)');
  const listed = await s3client().send(new ListObjectsV2Command({ Bucket: bucket }));
  expect(listed.KeyCount).toBe(0);
});

// A copy within the endpoint (CopyObject) keeps its source's checksum; --checksum-algorithm
// named on the command line makes the server compute that one for the copy.
test(`server-side copies: --checksum-algorithm named stores that algorithm, computed from the bytes (seed ${SEED})`, async () => {
  const r = prng(SEED + 2);
  const src = await createBucket();
  const dst = await createBucket();
  const body = r.bytes(1 + r.int(100000));
  const up = await runCli(['cp', '-', `s3://${src}/k`, '--checksum-algorithm', 'none'], { input: body });
  expect(up.stderr).toBe('');
  for (const algorithm of ['CRC32C', 'SHA256']) {
    const res = await runCli(['cp', `s3://${src}/k`, `s3://${dst}/${algorithm}`, '--checksum-algorithm', algorithm]);
    expect(res.stderr).toBe('');
    expect(await stored(dst, algorithm)).toEqual({ [`Checksum${algorithm}`]: await expected(body, algorithm, false) });
  }
});
