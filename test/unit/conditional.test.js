'use strict';
// Conditional deletes and --no-overwrite, piece by piece, with the SDK mocked: the probes
// (what each answer means), what a batch of deletes turns into, how a write is routed where
// a request type ignores If-None-Match, the lean path's headers, and the AccessDenied hint.
const { mockClient } = require('aws-sdk-client-mock');
const {
  S3Client, DeleteObjectsCommand, DeleteObjectCommand, PutObjectCommand, CopyObjectCommand, CreateMultipartUploadCommand,
  UploadPartCommand, CompleteMultipartUploadCommand, AbortMultipartUploadCommand,
} = require('@aws-sdk/client-s3');
const { S3Store } = require('../../src/stores/s3-store');
const { deleteCondition, deleteBatch } = require('../../src/stages/conditional-deletes');
const { WriteGuard } = require('../../src/transfer/no-overwrite');
const { serverCopy } = require('../../src/transfer/server-copy');
const { streamCopy } = require('../../src/transfer/stream-copy');
const { upload } = require('../../src/transfer/upload');
const { copyHeaders } = require('../../src/stores/lean-requests');
const { LeanObjects, writeHeaders } = require('../../src/stores/lean-objects');
const { Copier, copyOptions } = require('../../src/transfer/copier');
const { normalizeWriteOptions } = require('../../src/transfer/write-options');
const { SafetyError, ObjectError } = require('../../src/errors');

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());
const newStore = () => new S3Store({ bucket: 'bkt', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const s3Error = (status, name) => Object.assign(new Error(name), { name, Code: name, $metadata: { httpStatusCode: status } });

describe('conditional delete probe', () => {
  test('a missing key named with an ETag answered NoSuchKey: supported, one request', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [] }).callsFake((input) => ({ Errors: [{ Key: input.Delete.Objects[0].Key, Code: 'NoSuchKey' }] }));
    const store = newStore();
    const r = await store.conditionalDeletes({ prefix: 'data/' });
    expect(r).toMatchObject({ supported: true, etags: true });
    const calls = s3.commandCalls(DeleteObjectsCommand);
    expect(calls).toHaveLength(1);
    const probe = calls[0].args[0].input.Delete.Objects[0];
    expect(probe.Key).toMatch(/^data\/\.s3blitz-probe-[0-9a-f]{16}$/);
    expect(probe.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    // Asked once per store.
    await store.conditionalDeletes({ prefix: 'data/' });
    expect(s3.commandCalls(DeleteObjectsCommand)).toHaveLength(1);
  });

  test('a missing key reported deleted (s3proxy), a wrong ETag on an object of our own refused: supported, probe removed', async () => {
    let n = 0;
    s3.on(DeleteObjectsCommand).callsFake((input) => {
      const o = input.Delete.Objects[0];
      n++;
      if (n === 2) return { Errors: [{ Key: o.Key, Code: 'PreconditionFailed' }] };
      return { Deleted: [{ Key: o.Key }] };
    });
    s3.on(PutObjectCommand).resolves({ ETag: '"e"' });
    const r = await newStore().conditionalDeletes();
    expect(r).toMatchObject({ supported: true, etags: true });
    const calls = s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete.Objects[0]);
    expect(calls).toHaveLength(3);
    expect(calls[2]).toEqual({ Key: calls[0].Key }); // the probe object itself, gone at the end
    expect(s3.commandCalls(PutObjectCommand)[0].args[0].input.Key).toBe(calls[0].Key);
  });

  test('a server that deletes whatever the ETag: not supported; its delete markers go by version id', async () => {
    s3.on(DeleteObjectsCommand).callsFake((input) => {
      const o = input.Delete.Objects[0];
      return { Deleted: [o.VersionId ? { Key: o.Key, VersionId: o.VersionId } : { Key: o.Key, DeleteMarker: true, DeleteMarkerVersionId: `m${Math.random()}` }] };
    });
    s3.on(PutObjectCommand).resolves({ ETag: '"e"', VersionId: 'v1' });
    const r = await newStore().conditionalDeletes();
    expect(r).toMatchObject({ supported: false, etags: true });
    const objects = s3.commandCalls(DeleteObjectsCommand).map((c) => c.args[0].input.Delete.Objects);
    // probe, marker removal, wrong-ETag delete, then the object's version and the second marker by id
    expect(objects[1]).toEqual([{ Key: objects[0][0].Key, VersionId: expect.stringMatching(/^m/) }]);
    expect(objects[3].map((o) => o.VersionId)).toEqual(['v1', expect.stringMatching(/^m/)]);
  });

  test('a server that refuses ETags in DeleteObjects (400): not supported and deletes go without them', async () => {
    s3.on(DeleteObjectsCommand).rejects(s3Error(400, 'MalformedXML'));
    expect(await newStore().conditionalDeletes()).toMatchObject({ supported: false, etags: false });
  });
});

describe('deleteCondition', () => {
  const store = (probe) => ({ type: 's3', conditionalDeletes: async () => probe });
  test('supported: ETags, no notice', async () => {
    const log = jest.fn();
    expect(await deleteCondition(store({ supported: true, etags: true }), { log })).toEqual({ etags: true });
    expect(log).not.toHaveBeenCalled();
  });
  test('not supported: one notice and on; with requireConditional, exit 4', async () => {
    const log = jest.fn();
    expect(await deleteCondition(store({ supported: false, etags: true, detail: 'x' }), { log })).toEqual({ etags: true });
    expect(log.mock.calls[0][0]).toMatch(/does not honour conditional deletes \(x\).*--require-conditional/);
    await expect(deleteCondition(store({ supported: null, etags: true, detail: 'y' }), { requireConditional: true })).rejects.toMatchObject({ exitCode: 4, message: expect.stringMatching(/could not tell.*nothing was deleted/) });
  });
  test('a folder: no probe, no notice', async () => {
    expect(await deleteCondition({ type: 'local' }, { requireConditional: true })).toEqual({ etags: false });
  });
});

describe('deleteBatch', () => {
  // A store whose DeleteObjects answers per key from a table, and whose HeadObject says what is there.
  function fakeStore(answers, now, { conflictOnce = new Set() } = {}) {
    const sent = [];
    return {
      sent,
      async deleteKeys(entries) {
        sent.push(entries);
        const errors = [];
        for (const e of entries) {
          const key = typeof e === 'string' ? e : e.key;
          if (conflictOnce.delete(key)) { errors.push({ key, code: 'ConditionalRequestConflict', reason: 'ConditionalRequestConflict' }); continue; }
          if (answers[key]) errors.push({ key, code: answers[key], reason: `${answers[key]} msg` });
        }
        return errors;
      },
      async stat(key) { return key in now ? now[key] : null; },
    };
  }
  const batch = ['a', 'b', 'c', 'd', 'e', 'f'].map((key) => ({ key, size: 1, etag: `"${key}1"` }));

  test('each key to its outcome; ETags sent only when asked', async () => {
    const store = fakeStore({ b: 'PreconditionFailed', c: 'PreconditionFailed', d: 'NoSuchKey', e: 'AccessDenied' }, { b: { ETag: '"b2"' } }, { conflictOnce: new Set(['f']) });
    const out = await deleteBatch(store, batch, { etags: true });
    expect(out.map((o) => [o.r.key, o.status])).toEqual([['a', 'deleted'], ['b', 'changed'], ['c', 'vanished'], ['d', 'vanished'], ['e', 'failed'], ['f', 'deleted']]);
    expect(out[1].reason).toMatch(/"b1" when listed, "b2" now/);
    expect(out[4].reason).toBe('AccessDenied msg');
    expect(store.sent[0][0]).toEqual({ key: 'a', etag: '"a1"' });
    expect(store.sent[1]).toEqual([{ key: 'f', etag: '"f1"' }]); // the 409 once more
    const plain = fakeStore({}, {});
    await deleteBatch(plain, batch, { etags: false });
    expect(plain.sent[0]).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});

describe('S3Store deletes with ETags', () => {
  test('DeleteObjects names each ETag; an XML-unsafe key goes alone with If-Match; codes come back', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'b', Code: 'PreconditionFailed', Message: 'no' }] });
    s3.on(DeleteObjectCommand).rejects(s3Error(412, 'PreconditionFailed'));
    const errors = await newStore().deleteKeys([{ key: 'a', etag: '"1"' }, { key: 'b', etag: '"2"' }, { key: 'c\u0001', etag: '"3"' }, 'd']);
    expect(s3.commandCalls(DeleteObjectsCommand)[0].args[0].input.Delete.Objects).toEqual([{ Key: 'a', ETag: '"1"' }, { Key: 'b', ETag: '"2"' }, { Key: 'd' }]);
    expect(s3.commandCalls(DeleteObjectCommand)[0].args[0].input).toMatchObject({ Key: 'c\u0001', IfMatch: '"3"' });
    expect(errors.map((e) => [e.key, e.code])).toEqual([['b', 'PreconditionFailed'], ['c\u0001', 'PreconditionFailed']]);
  });

  test('a 404 under If-Match is NoSuchKey (vanished); without it, deleted as before', async () => {
    s3.on(DeleteObjectCommand).rejects(s3Error(404, 'NoSuchKey'));
    expect(await newStore().deleteKeys([{ key: 'x\u0001', etag: '"1"' }, 'y\u0001'])).toEqual([{ key: 'x\u0001', code: 'NoSuchKey', reason: 'NoSuchKey' }]);
  });

  test('AccessDenied on a delete without an ETag, or a write without If-None-Match, says what a policy may want', async () => {
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'a', Code: 'AccessDenied', Message: 'Access Denied' }, { Key: 'b', Code: 'AccessDenied', Message: 'Access Denied' }] });
    const errors = await newStore().deleteKeys(['a', { key: 'b', etag: '"1"' }]);
    expect(errors[0].reason).toMatch(/^AccessDenied Access Denied: if the bucket policy requires conditional deletes \(s3:if-match\)/);
    expect(errors[1].reason).toBe('AccessDenied Access Denied');
    s3.on(PutObjectCommand).rejects(s3Error(403, 'AccessDenied'));
    const { describeS3Error } = require('../../src/stores/s3-errors');
    const bare = await newStore().putObject({ Key: 'k', Body: 'x' }).catch((e) => e);
    expect(describeS3Error(bare, { bucket: 'bkt' }).message).toBe('access denied to bucket "bkt": if the bucket policy requires conditional writes (s3:if-none-match), --no-overwrite sends If-None-Match: *');
    s3.on(PutObjectCommand).rejects(s3Error(403, 'AccessDenied'));
    const conditional = await newStore().putObject({ Key: 'k', Body: 'x', IfNoneMatch: '*' }).catch((e) => e);
    expect(describeS3Error(conditional, { bucket: 'bkt' }).message).toBe('access denied to bucket "bkt"');
    s3.on(CopyObjectCommand).rejects(s3Error(403, 'AccessDenied'));
    const copy = await newStore().copyObject({ Key: 'k', CopySource: 'bkt/j', MetadataDirective: 'REPLACE' }).catch((e) => e);
    expect(describeS3Error(copy, { bucket: 'bkt' }).message).toMatch(/--no-overwrite sends If-None-Match/);
  });
});

describe('conditional write probe', () => {
  test('a 412 on the request under test: honoured; the probe object is removed', async () => {
    s3.on(PutObjectCommand).resolvesOnce({ ETag: '"p"' }).rejects(s3Error(412, 'PreconditionFailed'));
    s3.on(DeleteObjectsCommand).resolves({});
    const store = newStore();
    expect(await store.conditionalWrites('put', { prefix: 'to/' })).toMatchObject({ honoured: true });
    const puts = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(puts.map((p) => p.IfNoneMatch)).toEqual(['*', '*']);
    expect(puts[0].Key).toMatch(/^to\/\.s3blitz-probe-/);
    expect(s3.commandCalls(DeleteObjectsCommand)[0].args[0].input.Delete.Objects).toEqual([{ Key: puts[0].Key }]);
  });

  test('a CopyObject that overwrites: ignored, and both versions of a versioned bucket go', async () => {
    s3.on(PutObjectCommand).resolves({ ETag: '"p"', VersionId: 'v1' });
    s3.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"p"' }, VersionId: 'v2' });
    s3.on(DeleteObjectsCommand).resolves({});
    const r = await newStore().conditionalWrites('copy');
    expect(r).toMatchObject({ honoured: false, detail: expect.stringMatching(/CopyObject with If-None-Match: \* overwrote/) });
    expect(s3.commandCalls(CopyObjectCommand)[0].args[0].input).toMatchObject({ IfNoneMatch: '*', MetadataDirective: 'REPLACE' });
    expect(s3.commandCalls(DeleteObjectsCommand)[0].args[0].input.Delete.Objects.map((o) => o.VersionId)).toEqual(['v1', 'v2']);
  });

  test('CompleteMultipartUpload: the upload is aborted after its 412', async () => {
    s3.on(PutObjectCommand).resolves({ ETag: '"p"' });
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u' });
    s3.on(UploadPartCommand).resolves({ ETag: '"part"' });
    s3.on(CompleteMultipartUploadCommand).rejects(s3Error(412, 'PreconditionFailed'));
    s3.on(AbortMultipartUploadCommand).resolves({});
    s3.on(DeleteObjectsCommand).resolves({});
    expect(await newStore().conditionalWrites('complete')).toMatchObject({ honoured: true });
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0].args[0].input.IfNoneMatch).toBe('*');
    expect(s3.commandCalls(AbortMultipartUploadCommand)).toHaveLength(1);
  });

  test('a probe object that cannot be written: could not tell', async () => {
    s3.on(PutObjectCommand).rejects(s3Error(403, 'AccessDenied'));
    expect(await newStore().conditionalWrites('put')).toMatchObject({ honoured: null });
  });
});

describe('WriteGuard routes each object to a request type that keeps If-None-Match', () => {
  const guardWith = (honoured) => {
    const probed = [];
    const notices = [];
    const dst = { conditionalWrites: async (type) => { probed.push(type); return { honoured: honoured[type], detail: `${type} detail` }; } };
    return { guard: new WriteGuard({ dst, notice: (m) => notices.push(m) }), probed, notices };
  };
  const job = (size, etag = '"abc"') => ({ item: { Key: 'k', Size: size, ETag: etag }, largeCopyThreshold: 64 << 20, w: {} });

  test('all honoured: the usual request, one probe', async () => {
    const { guard, probed } = guardWith({ copy: true, put: true, complete: true });
    const run = await guard.route(job(10), serverCopy);
    expect(probed).toEqual(['copy']);
    expect(typeof run).toBe('function');
  });

  test('CopyObject ignored: a small object goes by PutObject through s3blitz, a large one by a multipart copy; said once', async () => {
    const { guard, probed, notices } = guardWith({ copy: false, put: true, complete: true });
    const calls = [];
    jest.spyOn(require('../../src/transfer/stream-copy'), 'streamCopy').mockImplementation(async (j) => { calls.push(['stream', j.split]); return {}; });
    const small = await guard.route(job(10), serverCopy);
    await small(job(10));
    expect(calls).toEqual([['stream', 'whole']]);
    await guard.route(job(100 << 20), serverCopy);
    expect(probed).toEqual(['copy', 'put', 'complete']);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/ignores If-None-Match on CopyObject \(copy detail\)/);
    jest.restoreAllMocks();
  });

  test('nothing honoured: the run is refused (exit 4); a size no honoured request fits fails the object', async () => {
    const none = guardWith({ copy: false, put: false, complete: null });
    await expect(none.guard.route(job(10), serverCopy)).rejects.toBeInstanceOf(SafetyError);
    await expect(guardWith({ put: false, complete: false }).guard.route(job(10), streamCopy)).rejects.toMatchObject({ exitCode: 4, message: expect.stringMatching(/PutObject or CompleteMultipartUpload.*nothing was written/) });
    // Only PutObject honoured, and an upload past the threshold (parts only): the object fails.
    const putOnly = guardWith({ put: true, complete: false });
    await expect(putOnly.guard.route(job(100 << 20), upload)).rejects.toBeInstanceOf(ObjectError);
  });
});

describe('lean path headers', () => {
  test('If-None-Match on CopyObject, PutObject and CompleteMultipartUpload, never on CreateMultipartUpload', async () => {
    expect(copyHeaders({ CopySource: 'b/k', CopySourceIfMatch: '"e"', IfNoneMatch: '*' })).toMatchObject({ 'x-amz-copy-source-if-match': '"e"', 'if-none-match': '*' });
    expect(writeHeaders({ IfNoneMatch: '*' })).toEqual({ 'if-none-match': '*' });
    const sent = [];
    const lean = { request: async (method, key, query, headers) => { sent.push({ method, query, headers }); return { status: 200, headers: {}, body: Buffer.from('<CompleteMultipartUploadResult><ETag>"x-1"</ETag></CompleteMultipartUploadResult><InitiateMultipartUploadResult><UploadId>u</UploadId></InitiateMultipartUploadResult>') }; } };
    const objects = new LeanObjects(lean);
    await objects.completeMultipartUpload({ Key: 'k', UploadId: 'u', MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"p"' }] }, IfNoneMatch: '*' });
    await objects.createMultipartUpload({ Key: 'k', IfNoneMatch: '*' });
    expect(sent[0].headers['if-none-match']).toBe('*');
    expect(sent[1].headers['if-none-match']).toBeUndefined();
    // Every part of a multipart copy is pinned to the listed source version.
    const partAnswer = { request: async (method, key, query, headers) => { sent.push({ method, query, headers }); return { status: 200, headers: {}, body: Buffer.from('<CopyPartResult><ETag>"p1"</ETag></CopyPartResult>') }; } };
    await new LeanObjects(partAnswer).uploadPartCopy({ Key: 'k', UploadId: 'u', PartNumber: 2, CopySource: 'src/k', CopySourceRange: 'bytes=0-9', CopySourceIfMatch: '"listed"' });
    expect(sent[2].headers).toMatchObject({ 'x-amz-copy-source': 'src/k', 'x-amz-copy-source-if-match': '"listed"', 'x-amz-copy-source-range': 'bytes=0-9' });
  });

  test('a 412 of the lean path is the answer: not sent again through the SDK', () => {
    const { FallBack } = require('../../src/stores/http-pool');
    const store = newStore();
    let thrown;
    try { store._fellBack(new FallBack('HTTP 412', 412), 'k'); } catch (e) { thrown = e; }
    expect(thrown).toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
  });
});

describe('copier under --no-overwrite', () => {
  // A target store whose writes answer 412 (or 409 once) and whose HEAD says whether the key is there.
  function copier({ exists, answer = 412, head }) {
    const dst = {
      type: 's3', bucket: 'dst',
      conditionalWrites: async () => ({ honoured: true }),
      stat: async () => (exists ? { ETag: '"t"' } : null),
      copyObject: async () => { const n = answer; answer = 'ok'; if (n === 'ok') return '"new"'; throw s3Error(n, n === 412 ? 'PreconditionFailed' : 'ConditionalRequestConflict'); },
    };
    const src = { type: 's3', bucket: 'src', stat: async () => head };
    return new Copier({ src, dst, w: normalizeWriteOptions({ noOverwrite: true }), co: copyOptions({}), sameConnection: true, signal: new AbortController().signal, stats: { count() {}, bytes: 0 } });
  }
  const item = { Key: 'k', Size: 3, ETag: '"e"' };

  test('a 412 where the target exists: skipped (exists)', async () => {
    expect(await copier({ exists: true }).copyOne(item, 'k')).toEqual({ status: 'skipped', reason: 'exists (--no-overwrite)' });
  });
  test('a 412 where the target is absent: the source changed, copied once more from its new version', async () => {
    expect(await copier({ exists: false, head: { ...item, ETag: '"e2"' } }).copyOne(item, 'k')).toMatchObject({ status: 'copied' });
  });
  test('a 409 (a write under way): tried once more', async () => {
    expect(await copier({ exists: false, answer: 409 }).copyOne(item, 'k')).toMatchObject({ status: 'copied' });
  });
  test('a folder target is refused: If-None-Match is S3\'s', () => {
    expect(() => new Copier({ src: { type: 's3' }, dst: { type: 'local' }, w: { noOverwrite: true }, co: copyOptions({}), signal: new AbortController().signal })).toThrow(/--no-overwrite applies to S3 targets/);
  });
});
