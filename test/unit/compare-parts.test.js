'use strict';
// compare's verdict on two multipart objects of the same part count, with the SDK mocked:
// where servers make or report parts differently, the pair is unknown, never a difference
// that sync would copy again on every run.
const { mockClient } = require('aws-sdk-client-mock');
const { S3Client, ListObjectsV2Command, HeadBucketCommand, HeadObjectCommand } = require('@aws-sdk/client-s3');
const { compare } = require('../../src/stages/compare');

const s3 = mockClient(S3Client);
const creds = { credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, region: 'us-east-1', log: () => {} };
const MiB = 1024 * 1024;
const s3err = (name, status) => Object.assign(new Error(name), { name, Code: name, $metadata: { httpStatusCode: status } });

function buckets(src, dst) {
  s3.reset();
  s3.on(HeadBucketCommand).resolves({});
  s3.on(ListObjectsV2Command, { Bucket: 'src' }).resolves({ Contents: [src], IsTruncated: false });
  s3.on(ListObjectsV2Command, { Bucket: 'dst' }).resolves({ Contents: [dst], IsTruncated: false });
}
const obj = (ETag, when) => ({ Key: 'big', Size: 12 * MiB, ETag, LastModified: new Date(when), StorageClass: 'STANDARD' });
const verdict = async () => Object.entries((await compare({ source: 's3://src', target: 's3://dst', ...creds })).classes).find(([, t]) => t.objects)[0];

test('same layout, other ETag, target written after the source (a copy on a server with its own part ETags): unknown', async () => {
  buckets(obj('"aaa-3"', 1000), obj('"bbb-3"', 2000));
  s3.on(HeadObjectCommand).resolves({ ContentLength: 5 * MiB });
  expect(await verdict()).toBe('unknown');
});

test('same layout, other ETag, target older than the source: content-differs', async () => {
  buckets(obj('"aaa-3"', 2000), obj('"bbb-3"', 1000));
  s3.on(HeadObjectCommand).resolves({ ContentLength: 5 * MiB });
  expect(await verdict()).toBe('content-differs');
});

test.each([[412, 'PreconditionFailed'], [501, 'NotImplemented'], [400, 'InvalidArgument']])('a part HEAD answered %i: unknown, not a failure', async (status, code) => {
  buckets(obj('"aaa-3"', 2000), obj('"bbb-3"', 1000));
  s3.on(HeadObjectCommand).rejects(s3err(code, status));
  expect(await verdict()).toBe('unknown');
});
