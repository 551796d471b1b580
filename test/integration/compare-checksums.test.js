'use strict';
// compare --checksum between buckets judges pairs by their stored full-object checksums (a
// HEAD each, checksum mode on) before it reads a byte: the same bytes written in other part
// layouts are the same, other bytes of the same size differ, and only pairs with no checksum
// in common are read. Objects, sizes, part layouts and which pairs differ are drawn from a
// seed; each pair's expected class comes from the bytes written, its expected way of being
// judged from what was asked of the server.
const {
  PutObjectCommand, CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand,
} = require('@aws-sdk/client-s3');
const { createBucket, s3client, libOptions, runCli } = require('../helpers/s3env');
const { prng } = require('../generators/prng');
const s3blitz = require('../..');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`compare-checksums seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
const MiB = 1024 * 1024;

// One object: single-part (partSize 0) or multipart (parts of partSize bytes, the last one
// shorter), with a full-object CRC64NVME, a composite CRC32, or no checksum at all.
async function write(bucket, key, body, { partSize, checksum }) {
  const client = s3client();
  const algo = checksum === 'full' ? { ChecksumAlgorithm: 'CRC64NVME' } : checksum === 'composite' ? { ChecksumAlgorithm: 'CRC32' } : {};
  if (!partSize) return client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...algo }));
  const type = checksum === 'full' ? { ChecksumType: 'FULL_OBJECT' } : checksum === 'composite' ? { ChecksumType: 'COMPOSITE' } : {};
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ...algo, ...type }));
  const done = [];
  for (let i = 0; i * partSize < body.length; i++) {
    const out = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: i + 1, Body: body.subarray(i * partSize, (i + 1) * partSize), ...algo }));
    done.push({ PartNumber: i + 1, ETag: out.ETag, ChecksumCRC64NVME: out.ChecksumCRC64NVME, ChecksumCRC32: out.ChecksumCRC32 });
  }
  return client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: done }, ...(checksum === 'full' ? { ChecksumType: 'FULL_OBJECT' } : {}) }));
}

test(`pairs are judged by stored checksums where both sides carry one, read only where none is shared (seed ${SEED})`, async () => {
  const r = prng(SEED);
  const src = await createBucket();
  const dst = await createBucket();
  // What --checksum=download finds (want), and --checksum, which reads no object (stored).
  const want = { classes: {}, judged: {} }, stored = { classes: {}, judged: {} };
  const add = (w, cls, how) => { w.classes[cls] = (w.classes[cls] || 0) + 1; if (how) w.judged[how] = (w.judged[how] || 0) + 1; };
  const note = (cls, how) => { add(want, cls, how); if (how === 'read') add(stored, 'unknown'); else add(stored, cls, how); };
  const kinds = ['full', 'full', 'none', 'composite'];
  for (let i = 0; i < 8; i++) {
    const key = `obj-${i}.bin`;
    const body = r.bytes(6 * MiB + 1 + r.int(3 * MiB));
    const differs = r.next() < 0.4;
    const other = Buffer.from(body);
    if (differs) other[r.int(other.length)] ^= 1 + r.int(255);
    const layouts = [0, 5 * MiB, 6 * MiB];
    const a = { partSize: r.pick(layouts), checksum: r.pick(kinds) };
    const b = { partSize: r.pick(layouts), checksum: i < 2 ? 'full' : r.pick(kinds) };
    if (i < 2) a.checksum = 'full';
    await write(src, key, body, a);
    await write(dst, key, other, b);
    const cls = differs ? 'content-differs' : 'same';
    // ETags settle single-part pairs (MD5s) and multipart ones of one layout and the same
    // bytes; checksums settle the rest where both are full; the rest is read (a multipart
    // side is in every such pair: without download it stays unknown).
    const etagSame = !differs && a.partSize === b.partSize;
    const singleDiffer = differs && !a.partSize && !b.partSize;
    if (a.checksum === 'full' && b.checksum === 'full' && !etagSame) note(cls, 'checksum CRC64NVME');
    else if (etagSame) note(cls, 'etag');
    else if (singleDiffer) note(cls, 'etag');
    else note(cls, 'read');
  }
  const classes = (out) => Object.fromEntries(Object.entries(out.classes).filter(([, t]) => t.objects).map(([c, t]) => [c, t.objects]));
  for (const [flag, w] of [['--checksum=download', want], ['--checksum', stored]]) {
    const res = await runCli(['compare', `s3://${src}`, `s3://${dst}`, flag, '--json']);
    expect(res.stderr).toBe('');
    const out = JSON.parse(res.stdout);
    expect(res.code).toBe(w.classes['content-differs'] ? 1 : 0);
    expect(classes(out)).toEqual(w.classes);
    expect(out.judgedBy).toEqual(w.judged);
    if (w === stored) expect(out.stats.requests.GET || 0).toBe(0);
  }

  // The library's result says the same, and the text report names how pairs were judged.
  const lib = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, checksum: 'download', ...libOptions() });
  expect(lib.judgedBy).toEqual(want.judged);
  expect((await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, checksum: true, ...libOptions() })).judgedBy).toEqual(stored.judged);
  const text = await runCli(['compare', '--checksum', 'download', `s3://${src}`, `s3://${dst}`]);
  if (want.judged['checksum CRC64NVME']) expect(text.stdout).toMatch(new RegExp(`judged by: .*stored checksum CRC64NVME ${want.judged['checksum CRC64NVME']}.*HEAD requests`));
  // sync judges pairs the same way: it would copy exactly the pairs that differ.
  const sync = await runCli(['sync', '--checksum=download', `s3://${src}`, `s3://${dst}`, '--dryrun', '--json', '-q']);
  expect(sync.code).toBe(0);
  const planned = JSON.parse(sync.stdout);
  expect(planned.judgedBy).toEqual(want.judged);
  expect(planned.planned.objects).toBe(want.classes['content-differs'] || 0);
  // Without download, the pairs nothing settles are left alone, and stderr says how many.
  const left = await runCli(['sync', `s3://${src}`, `s3://${dst}`, '--checksum', '--dryrun', '--json']);
  expect(JSON.parse(left.stdout).planned.objects).toBe(stored.classes['content-differs'] || 0);
  const unknown = stored.classes.unknown || 0;
  expect(left.stderr.includes(`${unknown} pairs of the same size have no stored checksum or ETag in common and were left as they are (--checksum=download reads them)`)).toBe(unknown > 0);
  for (const format of ['markdown', 'html']) {
    const rep = await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--checksum=download', '--format', format]);
    expect(rep.stdout).toContain('How pairs were judged');
    for (const [how, n] of Object.entries(want.judged)) {
      const label = { etag: 'ETag', read: 'bytes read' }[how] || `stored ${how}`;
      expect(rep.stdout).toMatch(format === 'html' ? `data-v="${label}">${label}</td><td class="r" data-v="${n}">` : `| ${label} | ${n} |`);
    }
  }
}, 300000);

test('the same bytes in two part layouts, both with a full-object CRC64NVME: same, with no byte read', async () => {
  const src = await createBucket();
  const dst = await createBucket();
  const body = prng(7).bytes(11 * MiB);
  await write(src, 'k', body, { partSize: 0, checksum: 'full' });
  await write(dst, 'k', body, { partSize: 5 * MiB, checksum: 'full' });
  const out = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, checksum: true, ...libOptions() });
  expect(out.classes.same.objects).toBe(1);
  expect(out.judgedBy).toEqual({ 'checksum CRC64NVME': 1 });
  expect(out.stats.requests.GET || 0).toBe(0);
  expect(out.stats.requests.HEAD).toBe(2);
  // Without --checksum the ETags cannot tell (one single-part, one of three parts).
  const plain = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, ...libOptions() });
  expect(plain.classes.unknown.objects).toBe(1);
}, 300000);

// A folder against a bucket: each file hashed in the algorithm its object's stored
// full-object checksum uses, the object never read; objects without one are read as before.
test(`a folder against a bucket by stored checksums, both ways, without reading the objects (seed ${SEED})`, async () => {
  const fs = require('fs'); const os = require('os'); const path = require('path');
  const r = prng(SEED + 1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-cksum-'));
  const bucket = await createBucket();
  const client = s3client();
  const want = { classes: {}, judged: {} }, stored = { classes: {}, judged: {} };
  let gets = 0, heads = 0;
  const add = (w, cls, how) => { w.classes[cls] = (w.classes[cls] || 0) + 1; if (how) w.judged[how] = (w.judged[how] || 0) + 1; };
  const note = (cls, how, download) => { add(want, cls, how); if (download) add(stored, 'unknown'); else add(stored, cls, how); };
  try {
    for (let i = 0; i < 12; i++) {
      const key = `d${i % 3}/f-${i}.bin`;
      const kind = i === 0 ? 'multipart-full' : i === 1 ? 'multipart-none' : r.pick(['CRC64NVME', 'CRC32', 'CRC32C', 'SHA256', 'SHA1', 'none']);
      const multipart = kind.startsWith('multipart');
      const body = r.bytes(multipart ? 6 * MiB + r.int(MiB) : 1 + r.int(200000));
      const local = Buffer.from(body);
      const differs = r.next() < 0.35;
      if (differs) local[r.int(local.length)] ^= 1 + r.int(255);
      fs.mkdirSync(path.join(dir, path.dirname(key)), { recursive: true });
      fs.writeFileSync(path.join(dir, key), local);
      if (multipart) await write(bucket, key, body, { partSize: 5 * MiB, checksum: kind === 'multipart-full' ? 'full' : 'none' });
      else await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ...(kind === 'none' ? {} : { ChecksumAlgorithm: kind }) }));
      const cls = differs ? 'content-differs' : 'same';
      // A small file whose MD5 is its object's ETag needs no request; any other pair a HEAD.
      if (multipart || differs) heads++;
      if (kind === 'multipart-full') note(cls, 'checksum CRC64NVME');
      else if (kind === 'none' || kind === 'multipart-none') { note(cls, 'read', multipart); if (multipart) gets++; } else note(cls, differs ? `checksum ${kind}` : 'read');
    }
    // A single-part object's ETag is its MD5: the file is read, the object is not; a file
    // that does not match it is judged by the stored checksum. Only multipart objects with
    // no checksum are read, and only with --checksum=download.
    for (const [a, b] of [[dir, `s3://${bucket}`], [`s3://${bucket}`, dir]]) {
      for (const [flag, w, reads] of [['--checksum=download', want, gets], ['--checksum', stored, 0]]) {
        const res = await runCli(['compare', a, b, flag, '--json']);
        expect(res.stderr).toBe('');
        const out = JSON.parse(res.stdout);
        expect(Object.fromEntries(Object.entries(out.classes).filter(([, t]) => t.objects).map(([c, t]) => [c, t.objects]))).toEqual(w.classes);
        expect(out.judgedBy).toEqual(w.judged);
        expect(out.stats.requests.GET || 0).toBe(reads);
        expect(out.stats.requests.HEAD || 0).toBe(heads);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 300000);

// --ignore-etags (SSE-KMS, SSE-C: ETags are no MD5s): stored checksums still decide; a pair
// without one is unknown, and with --checksum=download both sides are read, ETag or not.
test('--ignore-etags: stored checksums decide, and no single-part ETag is taken for an MD5', async () => {
  const src = await createBucket();
  const dst = await createBucket();
  const r = prng(SEED + 2);
  const a = r.bytes(1000), b = r.bytes(1000);
  await write(src, 'sum', a, { partSize: 0, checksum: 'full' });
  await write(dst, 'sum', a, { partSize: 0, checksum: 'full' });
  await write(src, 'plain', b, { partSize: 0, checksum: 'none' });
  await write(dst, 'plain', b, { partSize: 0, checksum: 'none' });
  const run = async (flag) => JSON.parse((await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--ignore-etags', flag, '--json'])).stdout);
  const stored = await run('--checksum');
  expect([stored.classes.same.objects, stored.classes.unknown.objects, stored.judgedBy, stored.stats.requests.GET || 0]).toEqual([1, 1, { 'checksum CRC64NVME': 1 }, 0]);
  const read = await run('--checksum=download');
  expect([read.classes.same.objects, read.judgedBy, read.stats.requests.GET]).toEqual([2, { 'checksum CRC64NVME': 1, read: 1 }, 2]);
}, 300000);
