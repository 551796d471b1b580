'use strict';
// The copy stage with the SDK mocked: outcomes S3 can produce that MinIO cannot easily
// (archived objects, 200-with-error bodies, objects changing between list and copy).
const { mockClient } = require('aws-sdk-client-mock');
const { S3Client, ListObjectsV2Command, HeadBucketCommand, CopyObjectCommand, HeadObjectCommand } = require('@aws-sdk/client-s3');
const { copy } = require('../../src/stages/copy');
const { classifyError } = require('../../src/transfer/outcome');

const s3 = mockClient(S3Client);
const creds = { credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, region: 'us-east-1' };
const item = (Key, ETag = '"e1"', Size = 10, StorageClass = 'STANDARD') => ({ Key, Size, ETag, StorageClass, LastModified: new Date(0) });
const s3err = (name, status) => Object.assign(new Error(name), { name, Code: name, $metadata: { httpStatusCode: status } });

beforeEach(() => {
  s3.reset();
  s3.on(HeadBucketCommand).resolves({});
});

test('archived objects are skipped and vanished ones reported; neither fails the run', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('cold', '"c"', 10, 'GLACIER'), item('gone'), item('ok')], IsTruncated: false });
  s3.on(CopyObjectCommand, { Key: 'cold' }).rejects(s3err('InvalidObjectState', 403));
  s3.on(CopyObjectCommand, { Key: 'gone' }).rejects(s3err('NoSuchKey', 404));
  s3.on(CopyObjectCommand, { Key: 'ok' }).resolves({ CopyObjectResult: { ETag: '"e1"' } });
  s3.on(HeadObjectCommand).rejects(s3err('NotFound', 404)); // gone indeed, not just uncopyable
  const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds });
  expect(r.copied.objects).toBe(1);
  expect(r.skipped.objects).toBe(1);
  expect(r.vanished.objects).toBe(1);
  expect(r.ok).toBe(true);
  expect(r.failures.map((f) => [f.key, f.status])).toEqual(expect.arrayContaining([['cold', 'skipped'], ['gone', 'vanished']]));
  // The archive class is passed on, since CopyObject without one writes STANDARD.
  expect(s3.commandCalls(CopyObjectCommand, { Key: 'cold' })[0].args[0].input.StorageClass).toBe('GLACIER');
});

test('every copy names the listed ETag and an encoded CopySource', async () => {
  s3.on(ListObjectsV2Command).resolves({ EncodingType: 'url', Contents: [item(encodeURIComponent('a b+c%d?e#f&g/😀').replace(/%20/g, '+'), '"etag-x"')], IsTruncated: false });
  s3.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"etag-x"' } });
  await copy({ source: 's3://src-bucket', target: 's3://dst-bucket/p/', ...creds });
  const input = s3.commandCalls(CopyObjectCommand)[0].args[0].input;
  expect(input.CopySource).toBe('src-bucket/a%20b%2Bc%25d%3Fe%23f%26g/%F0%9F%98%80');
  expect(input.CopySourceIfMatch).toBe('"etag-x"');
  expect(input.Key).toBe('p/a b+c%d?e#f&g/😀');
  expect(input.StorageClass).toBeUndefined();
});

test('a 200 OK without a copy result is a failure, named', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('x')], IsTruncated: false });
  s3.on(CopyObjectCommand).resolves({});
  const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds });
  expect(r.failed.objects).toBe(1);
  expect(r.failures[0]).toMatchObject({ key: 'x', status: 'failed', reason: expect.stringMatching(/without a result/) });
  expect(r.ok).toBe(false);
});

test('an object changed since listing is copied from its new version, never mixed', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('k', '"old"', 10)], IsTruncated: false });
  s3.on(CopyObjectCommand, { CopySourceIfMatch: '"old"' }).rejects(s3err('PreconditionFailed', 412));
  s3.on(HeadObjectCommand).resolves({ ETag: '"new"', ContentLength: 12, LastModified: new Date(1) });
  s3.on(CopyObjectCommand, { CopySourceIfMatch: '"new"' }).resolves({ CopyObjectResult: { ETag: '"new"' } });
  const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds });
  expect(r.copied).toEqual({ objects: 1, bytes: 12 });
  expect(s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input.CopySourceIfMatch)).toEqual(['"old"', '"new"']);
});

test('an object that keeps changing is reported as changed and fails the run', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('k', '"v1"')], IsTruncated: false });
  s3.on(CopyObjectCommand).rejects(s3err('PreconditionFailed', 412));
  s3.on(HeadObjectCommand).resolves({ ETag: '"v2"', ContentLength: 10 });
  const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds });
  expect(r.changed.objects).toBe(1);
  expect(r.ok).toBe(false);
});

test('credentials rejected mid-run stop the run with one fatal error', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('a'), item('b')], IsTruncated: false });
  s3.on(CopyObjectCommand).rejects(s3err('InvalidAccessKeyId', 403));
  await expect(copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds })).rejects.toMatchObject({ code: 'InvalidAccessKeyId', exitCode: 3, message: expect.stringMatching(/access key is not recognised/) });
});

test('classifyError', () => {
  expect(classifyError(s3err('NoSuchKey', 404)).status).toBe('vanished');
  expect(classifyError(s3err('InvalidObjectState', 403)).status).toBe('skipped');
  expect(classifyError(s3err('PreconditionFailed', 412)).status).toBe('changed');
  expect(classifyError(s3err('AccessDenied', 403))).toMatchObject({ status: 'failed', reason: expect.stringMatching(/access denied/) });
  expect(classifyError(s3err('InternalError', 500))).toMatchObject({ status: 'failed', reason: expect.stringMatching(/InternalError/) });
});

describe('servers that cannot answer HeadObject partNumber=1 (a multipart source asked to keep its layout)', () => {
  const { CreateMultipartUploadCommand, UploadPartCopyCommand, CompleteMultipartUploadCommand, GetObjectTaggingCommand } = require('@aws-sdk/client-s3');
  const MiB = 1024 * 1024;
  const mp = item('big', '"abc-3"', 12 * MiB); // 5 + 5 + 2 MiB, uploaded in parts
  const partHead = (input) => input.PartNumber === 1;
  beforeEach(() => {
    s3.on(ListObjectsV2Command).resolves({ Contents: [mp], IsTruncated: false });
    s3.on(GetObjectTaggingCommand).resolves({ TagSet: [] });
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'u1' });
    s3.on(UploadPartCopyCommand).resolves({ CopyPartResult: { ETag: '"p"' } });
    s3.on(CompleteMultipartUploadCommand).resolves({ ETag: '"abc-3"' });
  });
  const ranges = () => s3.commandCalls(UploadPartCopyCommand).map((c) => c.args[0].input.CopySourceRange);

  test.each([[501, 'NotImplemented'], [400, 'InvalidArgument']])('HTTP %i: a layout that cannot be learnt cannot be kept, so one CopyObject, and one notice', async (status, code) => {
    s3.on(HeadObjectCommand).callsFake((input) => { if (partHead(input)) throw s3err(code, status); return { ETag: '"abc-3"', ContentLength: 12 * MiB, ContentType: 'text/x' }; });
    s3.on(CopyObjectCommand).resolves({ CopyObjectResult: { ETag: '"md5"' } });
    const logs = [];
    const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds, journal: false, keepPartLayout: true, log: (m) => logs.push(m) });
    expect(r.copied.objects).toBe(1);
    expect(ranges()).toEqual([]);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
    expect(s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input.CopySourceIfMatch)).toEqual(['"abc-3"']);
    expect(s3.commandCalls(HeadObjectCommand).map((c) => [c.args[0].input.PartNumber, c.args[0].input.IfMatch])).toEqual([[1, '"abc-3"'], [undefined, '"abc-3"']]);
    expect(logs).toEqual([`the source server answers HeadObject with partNumber=1 with HTTP ${status}: its multipart objects cannot keep their part layout, so their copies get other ETags than their sources`]);
  });

  test('a multipart source over 5 GiB on such a server still goes in parts of s3blitz\'s own size', async () => {
    const huge = item('huge', '"abc-700"', 6 * 1024 * MiB);
    s3.on(ListObjectsV2Command).resolves({ Contents: [huge], IsTruncated: false });
    s3.on(HeadObjectCommand).callsFake((input) => { if (partHead(input)) throw s3err('NotImplemented', 501); return { ETag: '"abc-700"', ContentLength: huge.Size, ContentType: 'text/x' }; });
    const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds, journal: false, log: () => {} });
    expect(r.copied.objects).toBe(1);
    expect(ranges()).toHaveLength(Math.ceil(huge.Size / (64 * MiB)));
    expect(s3.commandCalls(CreateMultipartUploadCommand)[0].args[0].input.ContentType).toBe('text/x');
  });

  test('HTTP 412 on the part HEAD (moto checks If-Match against the part): unchanged, and the layout kept', async () => {
    s3.on(HeadObjectCommand).callsFake((input) => {
      if (partHead(input) && input.IfMatch) throw s3err('PreconditionFailed', 412);
      return partHead(input) ? { ETag: '"part1"', ContentLength: 5 * MiB, PartsCount: 3 } : { ETag: '"abc-3"', ContentLength: 12 * MiB };
    });
    const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds, journal: false, keepPartLayout: true, log: () => {} });
    expect(r.copied.objects).toBe(1);
    expect(ranges()).toEqual([`bytes=0-${5 * MiB - 1}`, `bytes=${5 * MiB}-${10 * MiB - 1}`, `bytes=${10 * MiB}-${12 * MiB - 1}`]);
  });

  test('HTTP 412 on the plain HEAD too: the object did change', async () => {
    // Every conditional HEAD fails: the object keeps changing under the copy.
    s3.on(HeadObjectCommand).callsFake((input) => { if (input.IfMatch) throw s3err('PreconditionFailed', 412); return { ETag: '"new-3"', ContentLength: 12 * MiB }; });
    const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds, journal: false, keepPartLayout: true, log: () => {} });
    expect(r.copied.objects).toBe(0);
    expect(r.changed.objects).toBe(1);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });
});

test('a server-side copy answered "no such key" for an object the server still serves goes through s3blitz (SeaweedFS folder objects)', async () => {
  const { GetObjectCommand, PutObjectCommand } = require('@aws-sdk/client-s3');
  const { Readable } = require('stream');
  s3.on(ListObjectsV2Command).resolves({ Contents: [item('dir/', '"d41d8cd98f00b204e9800998ecf8427e"', 0), item('gone')], IsTruncated: false });
  s3.on(CopyObjectCommand).rejects(s3err('NoSuchKey', 404));
  s3.on(HeadObjectCommand, { Key: 'dir/' }).resolves({ ETag: '"d41d8cd98f00b204e9800998ecf8427e"', ContentLength: 0 });
  s3.on(HeadObjectCommand, { Key: 'gone' }).rejects(s3err('NotFound', 404));
  s3.on(GetObjectCommand).callsFake(() => ({ Body: Readable.from([]), ContentLength: 0, ETag: '"d41d8cd98f00b204e9800998ecf8427e"' }));
  s3.on(PutObjectCommand).resolves({ ETag: '"d41d8cd98f00b204e9800998ecf8427e"' });
  const logs = [];
  const r = await copy({ source: 's3://src-bucket', target: 's3://dst-bucket', ...creds, journal: false, log: (m) => logs.push(m) });
  expect([r.copied.objects, r.vanished.objects]).toEqual([1, 1]);
  expect(s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input.Key)).toEqual(['dir/']);
  expect(s3.commandCalls(GetObjectCommand)[0].args[0].input.IfMatch).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
  expect(logs).toEqual(['the server refuses server-side copies of some objects it lists and serves (the first: "dir/", answered NoSuchKey): those are copied through s3blitz instead']);
});
