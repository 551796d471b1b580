'use strict';
// Writes and deletes that respect other writers, on real servers, through the fault proxy:
// its onRequest hook changes the bucket between the listing and the delete (or the copy)
// that follows it, with no sleeps. Deletes of keys rewritten meanwhile are refused where the
// server honours conditional deletes (SeaweedFS does; MinIO ignores them, so there the run
// says so once, and --require-conditional refuses); --no-overwrite never replaces a key
// that appeared meanwhile (MinIO ignores If-None-Match on CopyObject: the copy goes another
// way); a multipart copy whose source is rewritten mid-copy leaves one whole version; a
// listing that fails midway deletes nothing. Every check is against the server itself (the
// SDK's listing, HeadObject, MD5 of the bytes).
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const {
  S3Client, CreateBucketCommand, PutObjectCommand, GetObjectCommand, DeleteObjectCommand, ListObjectsV2Command,
  ListObjectVersionsCommand, CreateMultipartUploadCommand, UploadPartCommand, CompleteMultipartUploadCommand,
} = require('@aws-sdk/client-s3');
const { runCli, connection, s3client, createBucket, putObjects, sequentialList } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { startServer } = require('../helpers/servers');
const { prng } = require('../helpers/keysets');

const SEED = Number(process.env.S3BLITZ_SEED) || (Date.now() % 1e6);
console.log(`conditional.test.js: seed ${SEED} (S3BLITZ_SEED=${SEED} repeats this run)`);
const MiB = 1024 * 1024;
const md5 = (b) => crypto.createHash('md5').update(b).digest('hex');

// Keys of a seeded run: words, spaces, unicode, one with a control character (deleted by its
// own DeleteObject with If-Match: XML cannot carry it).
function seededKeys(r, prefix, n) {
  const parts = ['a', 'b', 'ü', 'x y', '日本', '+', '%', 'z'];
  const keys = new Set();
  while (keys.size < n) keys.add(`${prefix}${r.pick(parts)}${r.int(1e6)}/${r.pick(parts)}-${keys.size}.txt`);
  return [...keys, `${prefix}ctl\u0001victim.txt`, `${prefix}ctl\u0002other.txt`];
}
const bodyOf = (r) => Buffer.from(`body-${r.int(1e9)}`);

async function bodyMd5(client, bucket, key) {
  const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return md5(Buffer.from(await out.Body.transformToByteArray()));
}

function cliVia(endpoint, creds) {
  return (args, opts = {}) => runCli(args, { ...opts, env: { AWS_ENDPOINT_URL: endpoint, ...(creds || {}), ...(opts.env || {}) } });
}

const lines = (stderr) => stderr.trim().split('\n').filter(Boolean);

describe('conditional deletes where the server honours them (SeaweedFS)', () => {
  let conn, client, proxy, cli;
  beforeAll(async () => {
    conn = await startServer('seaweedfs');
    client = new S3Client({ endpoint: conn.endpoint, region: conn.region, forcePathStyle: true, credentials: { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey } });
    proxy = await startFaultProxy({ target: conn.endpoint });
    cli = cliVia(proxy.endpoint, { AWS_ACCESS_KEY_ID: conn.accessKeyId, AWS_SECRET_ACCESS_KEY: conn.secretAccessKey, AWS_REGION: conn.region });
  }, 600e3);
  afterAll(async () => {
    if (proxy) await proxy.close();
    if (client) client.destroy();
    if (conn) await conn.stop();
  });
  const list = async (bucket, prefix) => {
    const out = [];
    let token;
    do {
      const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, EncodingType: 'url' }));
      for (const o of r.Contents || []) out.push({ ...o, Key: r.EncodingType === 'url' ? decodeURIComponent(o.Key.replace(/\+/g, ' ')) : o.Key });
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  };

  // Before the first delete request reaches the server (the listing is done by then): some
  // keys rewritten, some deleted by "another writer".
  function changeBeforeDelete(bucket, { rewrite, remove, r }) {
    let fired = false;
    const newBodies = new Map();
    const off = proxy.onRequest((info) => {
      if (fired || info.bucket !== bucket || !(info.type === 'POST' && /[?&]delete/.test(info.url)) && info.type !== 'DELETE') return undefined;
      fired = true;
      return (async () => {
        for (const key of rewrite) {
          const body = bodyOf(r);
          newBodies.set(key, md5(body));
          await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
        }
        for (const key of remove) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      })();
    });
    return { newBodies, off, fired: () => fired };
  }

  test('rm: keys rewritten after the listing survive as changed (exit 1), keys deleted meanwhile are vanished', async () => {
    const r = prng(SEED);
    const bucket = 'rm-changed';
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const keys = seededKeys(r, 'data/', 150);
    for (const key of keys) await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bodyOf(r) }));
    const rewrite = [...keys.slice(0, 150).filter(() => r.next() < 0.04), keys[150]];
    const remove = keys.slice(0, 150).filter((k) => !rewrite.includes(k) && r.next() < 0.03);
    const change = changeBeforeDelete(bucket, { rewrite, remove, r });
    const res = await cli(['rm', `s3://${bucket}/data/`, '--json', '--no-journal']);
    change.off();
    expect(change.fired()).toBe(true);
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout);
    expect([out.deleted.objects, out.changed.objects, out.vanished.objects, out.failed.objects]).toEqual([keys.length - rewrite.length - remove.length, rewrite.length, remove.length, 0]);
    // What is left is exactly the rewritten keys, with their new bytes.
    const left = await list(bucket, 'data/');
    expect(left.map((o) => o.Key).sort()).toEqual([...rewrite].sort());
    for (const key of rewrite) expect(await bodyMd5(client, bucket, key)).toBe(change.newBodies.get(key));
    // Each named on stderr.
    for (const key of rewrite) expect(res.stderr).toContain(`s3blitz: changed ${JSON.stringify(key)}: changed since it was listed`);
    expect(res.stderr).not.toMatch(/does not honour conditional deletes/);
  });

  test('sync --delete: target keys rewritten after the listing are not deleted (exit 1, named, counted)', async () => {
    const r = prng(SEED + 1);
    const src = 'sync-src', dst = 'sync-dst';
    for (const b of [src, dst]) await client.send(new CreateBucketCommand({ Bucket: b }));
    const keep = seededKeys(r, '', 40).slice(0, 40);
    const extra = Array.from({ length: 30 }, (_, i) => `extra/${r.int(1e6)}-${i}`);
    for (const key of keep) { const body = bodyOf(r); await client.send(new PutObjectCommand({ Bucket: src, Key: key, Body: body })); await client.send(new PutObjectCommand({ Bucket: dst, Key: key, Body: body })); }
    for (const key of extra) await client.send(new PutObjectCommand({ Bucket: dst, Key: key, Body: bodyOf(r) }));
    const rewrite = extra.filter((_, i) => i % 7 === 3);
    const change = changeBeforeDelete(dst, { rewrite, remove: [], r });
    const res = await cli(['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--json', '--no-journal']);
    change.off();
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout);
    expect([out.deleted.objects, out.deleteChanged.objects, out.copied.objects]).toEqual([extra.length - rewrite.length, rewrite.length, 0]);
    const left = (await list(dst)).map((o) => o.Key);
    expect(left.filter((k) => k.startsWith('extra/')).sort()).toEqual([...rewrite].sort());
    for (const key of rewrite) expect(res.stderr).toContain(`s3blitz: changed ${JSON.stringify(key)}`);
  });
});

describe('on MinIO', () => {
  let proxy, cli, tmp;
  const client = () => s3client();
  beforeAll(async () => {
    proxy = await startFaultProxy({ target: connection().endpoint });
    cli = cliVia(proxy.endpoint);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-conditional-'));
  });
  afterAll(async () => {
    if (proxy) await proxy.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });
  const keysOf = async (bucket, prefix) => (await sequentialList(bucket, { prefix })).map((o) => o.Key);
  const versionsOf = async (bucket) => {
    const out = await client().send(new ListObjectVersionsCommand({ Bucket: bucket }));
    return [...(out.Versions || []), ...(out.DeleteMarkers || [])].map((v) => v.Key);
  };

  test('rm: MinIO ignores conditional deletes; the run says so once, and --require-conditional refuses with exit 4 before deleting', async () => {
    const r = prng(SEED + 2);
    const bucket = await createBucket();
    const keys = seededKeys(r, 'd/', 60);
    await putObjects(bucket, keys.map((key) => ({ key, body: bodyOf(r) })));
    const refused = await cli(['rm', `s3://${bucket}/d/`, '--require-conditional', '--no-journal']);
    expect(refused.code).toBe(4);
    expect(lines(refused.stderr)).toEqual([expect.stringMatching(/^s3blitz: the server does not honour conditional deletes \(DeleteObjects deleted an object whose ETag did not match\): nothing was deleted \(--require-conditional\)$/)]);
    expect((await keysOf(bucket, 'd/')).sort()).toEqual([...keys].sort());
    // No probe object or delete marker is left behind.
    expect((await keysOf(bucket, '')).length).toBe(keys.length);
    const plain = await cli(['rm', `s3://${bucket}/d/`, '--no-journal']);
    expect(plain.code).toBe(0);
    expect(lines(plain.stderr).filter((l) => /conditional deletes/.test(l))).toHaveLength(1);
    expect(await keysOf(bucket, '')).toEqual([]);
  });

  test('rm in a versioned bucket: the probe leaves no version or delete marker', async () => {
    const bucket = await createBucket();
    await client().send(new (require('@aws-sdk/client-s3').PutBucketVersioningCommand)({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
    await putObjects(bucket, ['v/a', 'v/b']);
    const res = await cli(['rm', `s3://${bucket}/v/`, '--require-conditional', '--no-journal']);
    expect(res.code).toBe(4);
    expect((await versionsOf(bucket)).sort()).toEqual(['v/a', 'v/b']);
  });

  test('cp --no-overwrite: an object created at the target between listing and copy is not overwritten; the rest is copied', async () => {
    const r = prng(SEED + 3);
    const src = await createBucket(), dst = await createBucket();
    const keys = seededKeys(r, 'in/', 40).slice(0, 40);
    const bodies = new Map(keys.map((k) => [k, bodyOf(r)]));
    await putObjects(src, keys.map((key) => ({ key, body: bodies.get(key) })));
    const late = [keys[3], keys[17], keys[31]];
    const theirs = new Map(late.map((k) => [k, Buffer.from(`theirs-${r.int(1e9)}`)]));
    // The first write request naming a late key (CopyObject, PutObject or a multipart one)
    // waits until "another writer" has created that key.
    const seen = new Set();
    const off = proxy.onRequest((info) => {
      if (info.bucket !== dst || !theirs.has(info.key) || seen.has(info.key) || info.method === 'HEAD' || info.method === 'GET') return undefined;
      seen.add(info.key);
      return client().send(new PutObjectCommand({ Bucket: dst, Key: info.key, Body: theirs.get(info.key) }));
    });
    const res = await cli(['cp', `s3://${src}/in/`, `s3://${dst}/in/`, '--no-overwrite', '--json', '--no-journal']);
    off();
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect([out.copied.objects, out.skipped.objects, out.failed.objects]).toEqual([keys.length - late.length, late.length, 0]);
    expect(out.failures.map((f) => [f.key, f.reason]).sort()).toEqual(late.map((k) => [k, 'exists (--no-overwrite)']).sort());
    for (const key of late) expect(await bodyMd5(client(), dst, key)).toBe(md5(theirs.get(key)));
    for (const key of keys.filter((k) => !theirs.has(k))) expect(await bodyMd5(client(), dst, key)).toBe(md5(bodies.get(key)));
    // MinIO overwrites on CopyObject with If-None-Match: said once, the copies went another way.
    expect(res.stderr).toMatch(/the server ignores If-None-Match on CopyObject/);
    expect((await keysOf(dst, '')).sort()).toEqual([...keys].sort()); // no probe object left
  });

  test('sync --no-overwrite writes only what the target lacks; keys that differ are skipped (exists)', async () => {
    const r = prng(SEED + 4);
    const src = await createBucket(), dst = await createBucket();
    const keys = seededKeys(r, '', 30).slice(0, 30);
    await putObjects(src, keys.map((key) => ({ key, body: bodyOf(r) })));
    const differ = keys.slice(0, 5);
    await putObjects(dst, differ.map((key) => ({ key, body: Buffer.from('old and different') })));
    const res = await cli(['sync', `s3://${src}`, `s3://${dst}`, '--no-overwrite', '--json', '--no-journal']);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect([out.copied.objects, out.skipped.objects]).toEqual([keys.length - differ.length, differ.length]);
    for (const key of differ) expect(await bodyMd5(client(), dst, key)).toBe(md5(Buffer.from('old and different')));
  });

  test('upload and cp - (stdin) with --no-overwrite: an existing key keeps its bytes', async () => {
    const dst = await createBucket();
    await putObjects(dst, [{ key: 'up/a.txt', body: Buffer.from('existing') }, { key: 'stdin.txt', body: Buffer.from('existing') }]);
    const dir = path.join(tmp, 'up');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'local a');
    fs.writeFileSync(path.join(dir, 'b.txt'), 'local b');
    const up = await cli(['cp', dir, `s3://${dst}/up/`, '--no-overwrite', '--json', '--no-journal']);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ copied: { objects: 1 }, skipped: { objects: 1 } });
    expect(await bodyMd5(client(), dst, 'up/a.txt')).toBe(md5(Buffer.from('existing')));
    expect(await bodyMd5(client(), dst, 'up/b.txt')).toBe(md5(Buffer.from('local b')));
    const piped = await cli(['cp', '-', `s3://${dst}/stdin.txt`, '--no-overwrite'], { input: 'from stdin' });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toMatch(/skipped ".*stdin.txt": exists \(--no-overwrite\)/);
    expect(await bodyMd5(client(), dst, 'stdin.txt')).toBe(md5(Buffer.from('existing')));
    const fresh = await cli(['cp', '-', `s3://${dst}/new.txt`, '--no-overwrite'], { input: 'from stdin' });
    expect(fresh.code).toBe(0);
    expect(await bodyMd5(client(), dst, 'new.txt')).toBe(md5(Buffer.from('from stdin')));
    expect((await keysOf(dst, '')).sort()).toEqual(['new.txt', 'stdin.txt', 'up/a.txt', 'up/b.txt']);
  });

  test('a multipart copy whose source is rewritten after its first part leaves one whole version, never a mix', async () => {
    const r = prng(SEED + 5);
    const src = await createBucket(), dst = await createBucket();
    const partBytes = (n) => crypto.randomBytes(5 * MiB).map((b) => (b + n + r.int(256)) % 256);
    const c = client();
    const put3 = async (key, parts) => {
      const { UploadId } = await c.send(new CreateMultipartUploadCommand({ Bucket: src, Key: key }));
      const done = [];
      for (let i = 0; i < parts.length; i++) done.push({ PartNumber: i + 1, ETag: (await c.send(new UploadPartCommand({ Bucket: src, Key: key, UploadId, PartNumber: i + 1, Body: parts[i] }))).ETag });
      await c.send(new CompleteMultipartUploadCommand({ Bucket: src, Key: key, UploadId, MultipartUpload: { Parts: done } }));
    };
    const v1 = [partBytes(1), partBytes(2), partBytes(3)];
    const v2 = [partBytes(4), partBytes(5), partBytes(6)];
    await put3('big.bin', v1);
    // After the first UploadPartCopy was answered, the next one waits until the source is version 2.
    let copies = 0;
    const off = proxy.onRequest((info) => {
      if (info.bucket !== dst || info.type !== 'COPY' || !/uploadId=/.test(info.url)) return undefined;
      if (++copies === 2) return put3('big.bin', v2);
      return undefined;
    });
    const res = await cli(['cp', `s3://${src}/big.bin`, `s3://${dst}/big.bin`, '--large-copy-threshold', '5MiB', '--part-concurrency', '1', '--json', '--no-journal']);
    off();
    expect(copies).toBeGreaterThanOrEqual(2);
    const whole = await bodyMd5(c, dst, 'big.bin').catch(() => null);
    // Absent, or byte for byte one whole version (here: the new one, copied once more).
    expect([md5(Buffer.concat(v1)), md5(Buffer.concat(v2)), null]).toContain(whole);
    expect(whole).toBe(md5(Buffer.concat(v2)));
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).copied.objects).toBe(1);
  }, 300e3);

  describe('a listing that fails midway deletes nothing', () => {
    // Persistent 500s on one bucket's ListObjectsV2 after its first N list requests (the SDK's retries give up).
    const failListing = (bucket, n) => {
      let seen = 0;
      return (info) => info.type === 'LIST' && info.bucket === bucket && ++seen > n;
    };
    for (const side of ['target', 'source']) {
      test(`the ${side}'s listing: exit 3, one line, target unchanged`, async () => {
        const r = prng(SEED + (side === 'target' ? 6 : 7));
        const src = await createBucket(), dst = await createBucket();
        const shared = Array.from({ length: 2500 }, (_, i) => `k/${String(i).padStart(5, '0')}-${r.int(1e6)}`);
        await putObjects(src, shared.slice(0, 1200).map((key) => ({ key, body: 'x' })));
        await putObjects(dst, shared.map((key) => ({ key, body: 'x' })));
        const before = await sequentialList(dst);
        const p = await startFaultProxy({ target: connection().endpoint, refuseRequest: failListing(side === 'target' ? dst : src, 2), refuse: { status: 500, code: 'InternalError' } });
        try {
          const res = await cliVia(p.endpoint)(['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--force', '--no-journal', '--list-concurrency', '4']);
          expect(res.code).toBe(3);
          const said = lines(res.stderr);
          expect(said).toHaveLength(1);
          expect(said[0]).toMatch(/^s3blitz: ListObjectsV2 failed: InternalError \(HTTP 500\).*: nothing was deleted$/);
          expect(said[0]).not.toMatch(/^s3blitz: internal error|\bat /);
          expect(p.stats().byType.DELETE + p.stats().byType.POST).toBe(0);
        } finally {
          await p.close();
        }
        expect((await sequentialList(dst)).map((o) => [o.Key, o.ETag])).toEqual(before.map((o) => [o.Key, o.ETag]));
      });
    }
  });
});
