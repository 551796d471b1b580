'use strict';
// mv with the SDK mocked, for what MinIO cannot show: a server that honours conditional
// deletes (MinIO ignores the ETags), a source rewritten between its copy and its delete, a copy
// whose bytes differ, a copy nothing can prove. And the proof's parts on their own.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { mockClient } = require('aws-sdk-client-mock');
const { S3Client, ListObjectsV2Command, HeadBucketCommand, CopyObjectCommand, HeadObjectCommand, DeleteObjectsCommand, GetObjectCommand } = require('@aws-sdk/client-s3');
const { Readable } = require('stream');
const { mv, DeleteBatcher } = require('../../src/stages/move');
const { proveCopy, fileMultipartEtag } = require('../../src/transfer/copy-proof');
const { RequestStats } = require('../../src/stats');

const s3 = mockClient(S3Client);
const creds = { credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, region: 'us-east-1' };
const item = (Key, ETag, Size = 10) => ({ Key, Size, ETag, StorageClass: 'STANDARD', LastModified: new Date(0) });

beforeEach(() => {
  s3.reset();
  s3.on(HeadBucketCommand).resolves({});
});

test('each source is deleted with its listed ETag once its copy is proven; a rewritten one, a different copy and one whose bytes differ are kept and named', async () => {
  const listed = [item('same', '"aaaa"'), item('rewritten', '"bbbb"'), item('differs', '"cccc-2"'), item('unproven', '"dddd-2"'), item('readable', '"eeee-2"')];
  // Nothing stored proves "unproven" or "readable": both are read, pinned to their ETags.
  s3.on(GetObjectCommand).callsFake(async (input) => ({ Body: Readable.from([Buffer.from(input.Key === 'unproven' && input.Bucket === 'dst' ? 'other bytes' : `bytes of ${input.Key}`)]) }));
  s3.on(ListObjectsV2Command).resolves({ Contents: listed, IsTruncated: false });
  // CopyObject of a single-part source keeps its ETag; of a multipart one it gets an MD5.
  s3.on(CopyObjectCommand).callsFake((input) => ({ CopyObjectResult: { ETag: input.Key === 'same' || input.Key === 'rewritten' ? input.CopySourceIfMatch : '"ffff"' } }));
  // HEADs with checksum mode: "differs" stores other CRC64NVMEs on the two sides, "unproven" none.
  s3.on(HeadObjectCommand).callsFake((input) => {
    if (input.Key === 'differs') return { ETag: input.IfMatch, ContentLength: 10, ChecksumCRC64NVME: input.Bucket === 'src' ? 'AAAAAAAAAAA=' : 'BBBBBBBBBBB=', ChecksumType: 'FULL_OBJECT' };
    if (input.Key === 'rewritten') return { ETag: '"new"', ContentLength: 10 };
    return { ETag: input.IfMatch, ContentLength: 10 };
  });
  const deletes = [];
  s3.on(DeleteObjectsCommand).callsFake(async (input) => {
    const objects = input.Delete.Objects;
    // A missing key named with an ETag: NoSuchKey (the probe learns ETags are honoured).
    if (objects.length === 1 && !listed.some((i) => i.Key === objects[0].Key)) return { Errors: [{ Key: objects[0].Key, Code: 'NoSuchKey' }] };
    deletes.push(...objects);
    return { Errors: objects.filter((o) => o.Key === 'rewritten').map((o) => ({ Key: o.Key, Code: 'PreconditionFailed', Message: 'At least one of the pre-conditions you specified did not hold' })) };
  });
  const r = await mv({ source: 's3://src', target: 's3://dst', ...creds });
  // Only the proven copies' sources were sent for deletion, each with its listed ETag.
  expect(deletes.sort((a, b) => a.Key.localeCompare(b.Key))).toEqual([{ Key: 'readable', ETag: '"eeee-2"' }, { Key: 'rewritten', ETag: '"bbbb"' }, { Key: 'same', ETag: '"aaaa"' }]);
  expect(r.moved).toEqual({ objects: 2, bytes: 20 });
  expect(r.provenBy).toMatchObject({ etag: 1, read: 1 });
  // Each read named the ETag it read: the source's as listed, the copy's as written.
  const reads = s3.commandCalls(GetObjectCommand).map((c) => [c.args[0].input.Bucket, c.args[0].input.Key, c.args[0].input.IfMatch]);
  expect(reads).toEqual(expect.arrayContaining([['src', 'readable', '"eeee-2"'], ['dst', 'readable', '"ffff"']]));
  const byKey = Object.fromEntries(r.failures.map((f) => [f.key, f]));
  expect(byKey.rewritten).toMatchObject({ status: 'changed', reason: expect.stringMatching(/changed since it was listed: it was kept/) });
  expect(byKey.differs).toMatchObject({ status: 'failed', reason: expect.stringMatching(/CRC64NVME differs/) });
  expect(byKey.unproven).toMatchObject({ status: 'failed', reason: expect.stringMatching(/the copy's bytes differ from its source's/) });
  expect(r.ok).toBe(false);
});

test('deletes that arrive together share DeleteObjects requests, each caller told its own key\'s fate', async () => {
  const calls = [];
  const store = {
    deleteKeys: async (entries) => {
      calls.push(entries.length);
      return entries.filter((e) => e.key.endsWith('7')).map((e) => ({ key: e.key, code: 'AccessDenied', reason: 'AccessDenied' }));
    },
  };
  const b = new DeleteBatcher(store, { condition: async () => ({ etags: true }), concurrency: 4 });
  const fates = await Promise.all(Array.from({ length: 2500 }, (_, i) => b.delete({ key: `k${i}`, size: 1, etag: `"e${i}"` })));
  expect(calls).toEqual([1000, 1000, 500]);
  expect(fates.filter((f) => f.status === 'failed').length).toBe(250);
  expect(fates.every((f, i) => f.r.key === `k${i}` && f.status === (i % 10 === 7 ? 'failed' : 'deleted'))).toBe(true);
});

test('a file\'s multipart ETag is the MD5 of its parts\' MD5s, for sizes around the part boundaries', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-mv-'));
  const part = 64 * 1024;
  for (const size of [1, part - 1, part, part + 1, 3 * part, 3 * part + 17]) {
    const body = crypto.randomBytes(size);
    const file = path.join(dir, String(size));
    fs.writeFileSync(file, body);
    const digests = [];
    for (let at = 0; at < size; at += part) digests.push(crypto.createHash('md5').update(body.subarray(at, at + part)).digest());
    const want = `${crypto.createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${digests.length}`;
    expect(await fileMultipartEtag(file, part)).toBe(want);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a download is proven by its checked checksum, else by the MD5 of the file; a file of other bytes is not', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-mv-'));
  fs.writeFileSync(path.join(dir, 'k'), 'hello');
  const job = (ETag) => ({ item: item('k', ETag, 5), key: 'k', src: { type: 's3' }, dst: { type: 'local', root: dir }, stats: new RequestStats() });
  expect(await proveCopy(job('"whatever"'), { status: 'copied', checked: true })).toBe('checksum');
  const md5 = crypto.createHash('md5').update('hello').digest('hex');
  expect(await proveCopy(job(`"${md5}"`), { status: 'copied' })).toBe('md5');
  await expect(proveCopy(job(`"${'0'.repeat(32)}"`), { status: 'copied' })).rejects.toThrow(/is not the object's ETag/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a DeleteObjects the server refuses as a whole (a 500 page) is sent again one key at a time: only the key it cannot take fails', async () => {
  const { deleteBatch } = require('../../src/stages/conditional-deletes');
  const calls = [];
  const store = {
    type: 's3',
    async deleteKeys(entries, signal, { eachAlone = false } = {}) {
      calls.push(eachAlone ? 'alone' : 'batch');
      if (!eachAlone) throw Object.assign(new Error('XML parse error'), { $metadata: { httpStatusCode: 500 } });
      return entries.filter((e) => e.key === 'poison').map((e) => ({ key: e.key, code: 'InternalError', reason: 'InternalError (HTTP 500)' }));
    },
  };
  const fates = await deleteBatch(store, ['a', 'poison', 'b'].map((key) => ({ key, size: 1, etag: '"e"' })), { etags: true });
  expect(calls).toEqual(['batch', 'alone']);
  expect(fates.map((f) => [f.r.key, f.status])).toEqual([['a', 'deleted'], ['poison', 'failed'], ['b', 'deleted']]);
  // Access denied, or throttling, stands for every key: no second try.
  const denied = { type: 's3', deleteKeys: async () => { throw Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }); } };
  await expect(deleteBatch(denied, [{ key: 'a' }, { key: 'b' }])).rejects.toThrow('AccessDenied');
});

test('a key the server refuses to delete with its listed ETag and heads without one (s3proxy\'s folder objects) is judged by size and time', async () => {
  const { deleteBatch } = require('../../src/stages/conditional-deletes');
  const listedAt = new Date('2026-11-28T00:00:00.250Z');
  const deleted = [];
  const store = {
    type: 's3',
    async deleteKeys(entries) {
      const refused = entries.filter((e) => typeof e === 'object' && e.etag);
      for (const e of entries) if (typeof e === 'string') deleted.push(e);
      return refused.map((e) => ({ key: e.key, code: 'PreconditionFailed', reason: 'PreconditionFailed' }));
    },
    async stat(key) { return { Key: key, Size: key === 'grown/' ? 5 : 0, ETag: undefined, LastModified: new Date('2026-11-28T00:00:00Z') }; },
  };
  const fates = await deleteBatch(store, [
    { key: 'dir/', size: 0, etag: '"d41d8cd98f00b204e9800998ecf8427e"', modified: listedAt },
    { key: 'grown/', size: 0, etag: '"d41d8cd98f00b204e9800998ecf8427e"', modified: listedAt },
    { key: 'untimed/', size: 0, etag: '"d41d8cd98f00b204e9800998ecf8427e"' },
  ], { etags: true });
  expect(fates.map((f) => [f.r.key, f.status])).toEqual([['dir/', 'deleted'], ['grown/', 'changed'], ['untimed/', 'changed']]);
  expect(deleted).toEqual(['dir/']);
  expect(fates[1].reason).toMatch(/gives the key no ETag to compare, and its size or time changed: not deleted/);
});
