'use strict';
const { metadataOf, tagsOf, restoreStatus } = require('../../src/stores/object-metadata');
const { objectOutput } = require('../../src/stores/lean-objects');
const { groupingOf } = require('../../src/stages/summary');

test('a HeadObject answer (lean headers) as the metadata fields', () => {
  const head = objectOutput({
    'content-length': '5', etag: '"e"', 'content-type': 'text/html', 'cache-control': 'no-cache', 'x-amz-meta-owner': 'ann',
    'x-amz-server-side-encryption': 'aws:kms', 'x-amz-server-side-encryption-aws-kms-key-id': 'arn:k', 'x-amz-checksum-crc32c': 'AAAA', 'x-amz-checksum-type': 'FULL_OBJECT',
    'x-amz-object-lock-mode': 'GOVERNANCE', 'x-amz-object-lock-retain-until-date': '2030-01-01T00:00:00.000Z', 'x-amz-object-lock-legal-hold': 'ON',
    'x-amz-restore': 'ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT"', 'x-amz-tagging-count': '2', 'x-amz-version-id': 'v1',
  });
  expect(metadataOf(head)).toEqual({
    ContentType: 'text/html', ContentEncoding: null, ContentDisposition: null, ContentLanguage: null, CacheControl: 'no-cache', Expires: null,
    Metadata: { owner: 'ann' }, ServerSideEncryption: 'aws:kms', SSEKMSKeyId: 'arn:k', BucketKeyEnabled: null, ChecksumAlgorithm: 'CRC32C', ChecksumType: 'FULL_OBJECT', Checksum: 'AAAA',
    ObjectLockMode: 'GOVERNANCE', ObjectLockRetainUntilDate: '2030-01-01T00:00:00.000Z', ObjectLockLegalHoldStatus: 'ON',
    RestoreStatus: { IsRestoreInProgress: false, RestoreExpiryDate: '2012-12-21T00:00:00.000Z' }, ReplicationStatus: null, ArchiveStatus: null, TagCount: 2,
  });
  expect(head.VersionId).toBe('v1');
  expect(restoreStatus('ongoing-request="true"')).toEqual({ IsRestoreInProgress: true, RestoreExpiryDate: null });
  expect(tagsOf([{ Key: 'a', Value: '1' }, { Key: 'b', Value: '' }])).toEqual({ a: '1', b: '' });
});

test('summarize --by: content-type, metadata:NAME (any case), tag:NAME; anything else is a usage error', () => {
  expect(groupingOf('content-type').of({ ContentType: 'text/plain' })).toBe('text/plain');
  expect(groupingOf('content-type').of({ ContentType: null })).toBe('(none)');
  expect(groupingOf('metadata:Owner').of({ Metadata: { owner: 'ann' } })).toBe('ann');
  expect(groupingOf('tag:env').of({ Tags: { env: 'prod' } })).toBe('prod');
  expect(groupingOf('tag:env').of({ Tags: {} })).toBe('(none)');
  expect(() => groupingOf('size')).toThrow(/--by must be/);
});
