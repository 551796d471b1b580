#!/usr/bin/env node
'use strict';
// Conformance check of bench/fake-s3.js through the real AWS SDK v3 client:
// paging (v1 markers, v2 tokens, start-after, url encoding) over unicode keys
// in UTF-8 order, delimiter walks, ranges, copies with preconditions,
// multipart with UploadPartCopy, aws-chunked uploads, tagging, batch delete.
//   node bench/check-fake.js      (exit 0 and "fake-s3 checks passed")

const assert = require('node:assert');
const crypto = require('node:crypto');
const { Readable } = require('node:stream');
const S = require('@aws-sdk/client-s3');
const { startFakeS3, toExternalKey, bodyMatches } = require('./fake-s3');

async function main() {
  const f = await startFakeS3({ listLatencyMs: 0, otherLatencyMs: 0 });
  // maxAttempts 1: a SlowDown is an answer to check here, not something to retry.
  const c = new S.S3Client({ endpoint: f.endpoint, region: 'us-east-1', forcePathStyle: true, maxAttempts: 1, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const send = (Cmd, input) => c.send(new Cmd(input));
  try {
    f.seed('h', 'hierarchical', 10000);
    f.seed('u', 'unicode', 3000);
    const all = (b) => f.buckets.get(b).keys.map(toExternalKey);

    // Flat v2 listings in small pages, raw and url-encoded (the SDK does not decode).
    for (const b of ['h', 'u']) {
      for (const enc of [undefined, 'url']) {
        const keys = [];
        let tok;
        do {
          const r = await send(S.ListObjectsV2Command, { Bucket: b, MaxKeys: 333, ContinuationToken: tok, EncodingType: enc });
          for (const o of r.Contents || []) keys.push(enc ? decodeURIComponent(o.Key.replace(/\+/g, ' ')) : o.Key);
          assert.equal(r.KeyCount, (r.Contents || []).length);
          tok = r.NextContinuationToken;
        } while (tok);
        assert.deepEqual(keys, all(b), `v2 listing of ${b} (${enc || 'raw'})`);
        for (let i = 1; i < keys.length; i++) assert.ok(Buffer.compare(Buffer.from(keys[i - 1]), Buffer.from(keys[i])) < 0, 'UTF-8 order');
      }
    }

    // Recursive delimiter walks, v1 (NextMarker) and v2, tiny pages.
    const walk = async (v, prefix) => {
      const out = [];
      let tok, marker;
      for (;;) {
        const r = v === 2
          ? await send(S.ListObjectsV2Command, { Bucket: 'u', Prefix: prefix, Delimiter: '/', MaxKeys: 7, ContinuationToken: tok })
          : await send(S.ListObjectsCommand, { Bucket: 'u', Prefix: prefix, Delimiter: '/', MaxKeys: 7, Marker: marker });
        for (const o of r.Contents || []) out.push(o.Key);
        for (const p of r.CommonPrefixes || []) out.push(...await walk(v, p.Prefix));
        if (!r.IsTruncated) return out;
        if (v === 2) tok = r.NextContinuationToken; else marker = r.NextMarker;
      }
    };
    const sorted = [...all('u')].sort();
    assert.deepEqual((await walk(1, '')).sort(), sorted, 'v1 delimiter walk');
    assert.deepEqual((await walk(2, '')).sort(), sorted, 'v2 delimiter walk');
    const u = all('u');
    const sa = await send(S.ListObjectsV2Command, { Bucket: 'u', StartAfter: u[1234], MaxKeys: 2 });
    assert.deepEqual(sa.Contents.map((o) => o.Key), u.slice(1235, 1237));
    assert.equal(sa.StartAfter, u[1234]);

    // Objects: head, range, put (plain and aws-chunked), copy + preconditions, errors.
    const k = u[5];
    const h = await send(S.HeadObjectCommand, { Bucket: 'u', Key: k });
    assert.equal(h.ContentLength, 1024);
    const g = await send(S.GetObjectCommand, { Bucket: 'u', Key: k, Range: 'bytes=10-19' });
    assert.equal((await g.Body.transformToByteArray()).length, 10);
    assert.equal(g.ContentRange, 'bytes 10-19/1024');
    await send(S.CreateBucketCommand, { Bucket: 'dst' });
    assert.equal((await send(S.PutObjectCommand, { Bucket: 'dst', Key: 'a b+c', Body: 'hello' })).ETag, '"5d41402abc4b2a76b9719d911017c592"');
    const data = crypto.randomBytes(200000);
    const put = await send(S.PutObjectCommand, { Bucket: 'dst', Key: 'stream', Body: Readable.from([data.subarray(0, 70000), data.subarray(70000)]), ContentLength: data.length });
    assert.equal(put.ETag, `"${crypto.createHash('md5').update(data).digest('hex')}"`, 'aws-chunked body decoded');
    const cp = await send(S.CopyObjectCommand, { Bucket: 'dst', Key: 'copy/ü 😀', CopySource: encodeURIComponent(`u/${k}`), CopySourceIfMatch: h.ETag });
    assert.equal(cp.CopyObjectResult.ETag, h.ETag);
    await assert.rejects(send(S.CopyObjectCommand, { Bucket: 'dst', Key: 'x', CopySource: `u/${encodeURIComponent(k)}`, CopySourceIfMatch: '"nope"' }), (e) => e.name === 'PreconditionFailed');
    await assert.rejects(send(S.HeadObjectCommand, { Bucket: 'dst', Key: 'nope' }), (e) => e.$metadata.httpStatusCode === 404);
    await assert.rejects(send(S.GetObjectCommand, { Bucket: 'dst', Key: 'nope' }), (e) => e.name === 'NoSuchKey');
    await assert.rejects(send(S.ListObjectsV2Command, { Bucket: 'nob' }), (e) => e.name === 'NoSuchBucket');

    // Multipart: UploadPartCopy from a 12 MiB object + UploadPart, complete, abort.
    f.seed('big', 'random', 3, { size: 12 << 20 });
    const bk = f.buckets.get('big').keys[0];
    const mp = await send(S.CreateMultipartUploadCommand, { Bucket: 'dst', Key: 'mp' });
    const p1 = await send(S.UploadPartCopyCommand, { Bucket: 'dst', Key: 'mp', UploadId: mp.UploadId, PartNumber: 1, CopySource: `big/${bk}`, CopySourceRange: 'bytes=0-8388607' });
    const p2 = await send(S.UploadPartCommand, { Bucket: 'dst', Key: 'mp', UploadId: mp.UploadId, PartNumber: 2, Body: Buffer.alloc(100) });
    assert.equal((await send(S.ListMultipartUploadsCommand, { Bucket: 'dst' })).Uploads.length, 1);
    const done = await send(S.CompleteMultipartUploadCommand, { Bucket: 'dst', Key: 'mp', UploadId: mp.UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: p1.CopyPartResult.ETag }, { PartNumber: 2, ETag: p2.ETag }] } });
    assert.match(done.ETag, /^"[0-9a-f]{32}-2"$/);
    assert.equal((await send(S.HeadObjectCommand, { Bucket: 'dst', Key: 'mp' })).ContentLength, (8 << 20) + 100);
    const mp2 = await send(S.CreateMultipartUploadCommand, { Bucket: 'dst', Key: 'mp2' });
    await send(S.AbortMultipartUploadCommand, { Bucket: 'dst', Key: 'mp2', UploadId: mp2.UploadId });
    assert.equal((await send(S.ListMultipartUploadsCommand, { Bucket: 'dst' })).Uploads, undefined);

    // Tagging, batch delete, bucket-level calls.
    await send(S.PutObjectTaggingCommand, { Bucket: 'dst', Key: 'mp', Tagging: { TagSet: [{ Key: 'a&b', Value: 'c' }] } });
    assert.deepEqual((await send(S.GetObjectTaggingCommand, { Bucket: 'dst', Key: 'mp' })).TagSet, [{ Key: 'a&b', Value: 'c' }]);
    const d = await send(S.DeleteObjectsCommand, { Bucket: 'dst', Delete: { Objects: [{ Key: 'a b+c' }, { Key: 'copy/ü 😀' }, { Key: 'stream' }] } });
    assert.equal(d.Deleted.length, 3);
    assert.deepEqual((await send(S.ListObjectsV2Command, { Bucket: 'dst' })).Contents.map((o) => o.Key), ['mp']);
    assert.equal((await send(S.HeadBucketCommand, { Bucket: 'h' })).BucketRegion, 'us-east-1');
    await send(S.GetBucketLocationCommand, { Bucket: 'h' });
    assert.deepEqual((await send(S.ListBucketsCommand, {})).Buckets.map((b) => b.Name), ['big', 'dst', 'h', 'u']);

    // Concurrent copies land in the pending buffer and list back identically.
    f.addBucket('d2');
    const hk = all('h').slice(0, 2000);
    await Promise.all(hk.map((key) => send(S.CopyObjectCommand, { Bucket: 'd2', Key: key, CopySource: `h/${key}` })));
    assert.equal(f.count('d2'), 2000);
    f.seed('h2', 'hierarchical', 2000);
    assert.equal(f.digest('d2').md5, f.digest('h2').md5, 'copies keep key, size and ETag');
    // Seeded multipart sources: sizes from the key, "-1" ETags, part HEADs, and what a copy
    // makes of them (CopyObject: an MD5; parts in the source's layout: the source's ETag).
    f.seed('mp', 'random', 50, { minSize: 1024, maxSize: 65536, parts: 1 });
    const mk = all('mp');
    const sizes = new Set();
    for (const key of mk.slice(0, 10)) {
      const whole = await send(S.HeadObjectCommand, { Bucket: 'mp', Key: key });
      assert.match(whole.ETag, /^"[0-9a-f]{32}-1"$/);
      assert.ok(whole.ContentLength >= 1024 && whole.ContentLength <= 65536);
      sizes.add(whole.ContentLength);
      const part = await send(S.HeadObjectCommand, { Bucket: 'mp', Key: key, PartNumber: 1, IfMatch: whole.ETag });
      assert.deepEqual([part.PartsCount, part.ContentLength, part.ETag], [1, whole.ContentLength, whole.ETag]);
      const copied = await send(S.CopyObjectCommand, { Bucket: 'dst', Key: `c/${key}`, CopySource: `mp/${key}` });
      assert.match(copied.CopyObjectResult.ETag, /^"[0-9a-f]{32}"$/, 'CopyObject of a multipart source: an MD5');
      const up = await send(S.CreateMultipartUploadCommand, { Bucket: 'dst', Key: `k/${key}` });
      const pc = await send(S.UploadPartCopyCommand, { Bucket: 'dst', Key: `k/${key}`, UploadId: up.UploadId, PartNumber: 1, CopySource: `mp/${key}`, CopySourceRange: `bytes=0-${whole.ContentLength - 1}` });
      const kept = await send(S.CompleteMultipartUploadCommand, { Bucket: 'dst', Key: `k/${key}`, UploadId: up.UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: pc.CopyPartResult.ETag }] } });
      assert.equal(kept.ETag, whole.ETag, 'parts copied in the source layout keep its ETag');
    }
    assert.ok(sizes.size > 1, 'sizes differ by key');
    assert.equal((await send(S.HeadObjectCommand, { Bucket: 'dst', Key: 'mp', PartNumber: 2 })).ContentLength, 100);
    assert.equal(f.digest('mp', { copied: true }).md5 !== f.digest('mp').md5, true);

    // GET bodies are the same in every process (the benchmark checks downloads against them
    // in another process): the pattern regenerated here, independently, must match a GET that
    // crosses the pattern's period and chunk boundaries.
    f.seed('pat', 'random', 1, { size: 300000, seed: 3 });
    const pk0 = all('pat')[0];
    const body = Buffer.from(await (await send(S.GetObjectCommand, { Bucket: 'pat', Key: pk0 })).Body.transformToByteArray());
    const ref = Buffer.alloc(65521);
    for (let i = 0, x = 0x2545f491; i < 65521; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; ref[i] = x & 0xff; }
    for (let i = 0; i < body.length; i++) if (body[i] !== ref[(i + body.length) % 65521]) assert.fail(`GET body byte ${i} is not the pattern`);
    assert.ok(bodyMatches(body, body.length, 0));

    // Per-prefix write limits: a burst over the bucket's tokens is answered SlowDown, per prefix.
    f.seed('pp', 'prefixes', 40, { prefixes: 2 });
    await fetch(`${f.endpoint}/__limits?prefixRate=10&burst=5`, { method: 'POST' });
    const pk = all('pp');
    const res = await Promise.allSettled(pk.map((key) => send(S.CopyObjectCommand, { Bucket: 'dst', Key: `pp/${key}`, CopySource: `pp/${key}` })));
    const slow = res.filter((r) => r.status === 'rejected');
    assert.ok(slow.length >= 28 && slow.every((r) => r.reason.name === 'SlowDown'), `throttled ${slow.length} of 40`);
    await fetch(`${f.endpoint}/__limits?prefixRate=0`, { method: 'POST' });
    console.log('fake-s3 checks passed', JSON.stringify(f.stats().requests));
  } finally {
    c.destroy();
    await f.close();
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
