'use strict';
// The SDK path of S3Store, with the SDK mocked: key decoding and error messages.
const { mockClient } = require('aws-sdk-client-mock');
const { S3Client, ListObjectsV2Command, HeadBucketCommand } = require('@aws-sdk/client-s3');
const { S3Store, decodeKey } = require('../../src/stores/s3-store');

const s3 = mockClient(S3Client);
beforeEach(() => s3.reset());

test('decodes S3 url encoding, where + is a space', () => {
  expect(decodeKey('a+b%2Bc%20d%F0%9F%98%80')).toBe('a b+c d😀');
  expect(decodeKey('%01%E2%80%A8')).toBe('\u0001\u2028');
});

test('listPage asks for url encoding and returns decoded items', async () => {
  s3.on(ListObjectsV2Command).resolves({ EncodingType: 'url', Contents: [{ Key: 'x+y%2B', Size: 3, ETag: '"e"', LastModified: new Date(0) }], IsTruncated: true, NextContinuationToken: 't' });
  const store = new S3Store({ bucket: 'bkt', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const page = await store.listPage({ prefix: 'x', startAfter: 'w' });
  expect(page).toEqual({ items: [{ Key: 'x y+', Size: 3, ETag: '"e"', LastModified: new Date(0), StorageClass: 'STANDARD' }], truncated: true, nextToken: 't' });
  const input = s3.commandCalls(ListObjectsV2Command)[0].args[0].input;
  expect(input).toMatchObject({ Bucket: 'bkt', Prefix: 'x', StartAfter: 'w', EncodingType: 'url' });
});

test('requester-pays is sent on list calls', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [], IsTruncated: false });
  const store = new S3Store({ bucket: 'bkt', region: 'us-east-1', requestPayer: 'requester', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await store.listPage({});
  expect(s3.commandCalls(ListObjectsV2Command)[0].args[0].input.RequestPayer).toBe('requester');
});

test('a missing bucket is one clear fatal error: the HEAD\'s bare 404, then the listing\'s NoSuchBucket', async () => {
  const err = Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
  s3.on(HeadBucketCommand).rejects(err);
  s3.on(ListObjectsV2Command).rejects(Object.assign(new Error('The specified bucket does not exist'), { name: 'NoSuchBucket', Code: 'NoSuchBucket', $metadata: { httpStatusCode: 404 } }));
  const store = new S3Store({ bucket: 'nope', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await expect(store.open()).rejects.toMatchObject({ exitCode: 3, message: 'bucket "nope" does not exist' });
});

test('an endpoint that answers a bare 404 to everything is not reported as a missing bucket', async () => {
  const bare = () => Object.assign(new Error('UnknownError'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
  s3.on(HeadBucketCommand).rejects(bare());
  s3.on(ListObjectsV2Command).rejects(bare());
  const store = new S3Store({ bucket: 'bkt', region: 'us-east-1', endpointUrl: 'http://127.0.0.1:1/not-s3', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await expect(store.open()).rejects.toMatchObject({ exitCode: 3, message: expect.stringMatching(/answered HTTP 404 with no S3 error to both HeadBucket and ListObjectsV2 of bucket "bkt": is it an S3 endpoint/) });
});

test('a bucket in another region is followed to its region once', async () => {
  s3.on(HeadBucketCommand).resolves({ BucketRegion: 'eu-west-1' });
  const store = new S3Store({ bucket: 'far-away', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await store.open();
  await store.open();
  expect(await store.client.config.region()).toBe('eu-west-1');
  expect(s3.commandCalls(HeadBucketCommand)).toHaveLength(1);
});

test('a PermanentRedirect names the region to use', async () => {
  const err = Object.assign(new Error('Moved'), { name: 'PermanentRedirect', $metadata: { httpStatusCode: 301 }, $response: { headers: { 'x-amz-bucket-region': 'ap-south-1' } } });
  s3.on(HeadBucketCommand).rejects(err);
  const store = new S3Store({ bucket: 'far-away', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await store.open();
  expect(await store.client.config.region()).toBe('ap-south-1');
});

test('a server that ignores encoding-type=url: keys are taken as sent', async () => {
  s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: 'x+y%2B', Size: 3 }, { Key: '100%', Size: 1 }], CommonPrefixes: [{ Prefix: 'p+%/' }], IsTruncated: false });
  const store = new S3Store({ bucket: 'bkt', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const page = await store.listPage({ delimiter: '/' });
  expect(page.items.map((i) => i.Key)).toEqual(['x+y%2B', '100%']);
  expect(page.prefixes).toEqual(['p+%/']);
});

test('a key that claims url encoding but is not is one fatal line naming the page', async () => {
  s3.on(ListObjectsV2Command).resolves({ EncodingType: 'url', Contents: [{ Key: '100%', Size: 1 }], IsTruncated: false });
  const store = new S3Store({ bucket: 'bkt', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  await expect(store.listPage({ prefix: 'p/', startAfter: 'p/a' })).rejects.toMatchObject({
    exitCode: 3,
    message: 'a list page of bucket "bkt" cannot be read (prefix "p/", after "p/a"): a key that is not valid url-encoding: "100%"',
  });
});
