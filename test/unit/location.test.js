'use strict';
const path = require('path');
const { parseLocation, resolveLocation } = require('../../src/stores/location');
const { UsageError } = require('../../src/errors');

describe('parseLocation', () => {
  test.each([
    ['s3://b', { type: 's3', bucket: 'b1'.slice(0, 1) + '', prefix: '' }],
  ])('bucket names must be valid', (text) => {
    expect(() => parseLocation(text)).toThrow(UsageError); // 'b' is too short for S3
  });

  test('s3 URLs keep the raw key prefix, with no implied slash', () => {
    expect(parseLocation('s3://my-bucket')).toMatchObject({ type: 's3', bucket: 'my-bucket', prefix: '' });
    expect(parseLocation('s3://my-bucket/')).toMatchObject({ bucket: 'my-bucket', prefix: '' });
    expect(parseLocation('s3://my-bucket/logs/20')).toMatchObject({ prefix: 'logs/20' });
    expect(parseLocation('s3://my-bucket/a b/%41/😀')).toMatchObject({ prefix: 'a b/%41/😀' });
  });

  test('AWS https URLs: virtual-hosted and path style', () => {
    expect(parseLocation('https://my-bucket.s3.eu-west-1.amazonaws.com/x/y%20z')).toMatchObject({ bucket: 'my-bucket', region: 'eu-west-1', prefix: 'x/y z' });
    expect(parseLocation('https://my-bucket.s3.amazonaws.com/k')).toMatchObject({ bucket: 'my-bucket', region: undefined, prefix: 'k' });
    expect(parseLocation('https://s3.us-west-2.amazonaws.com/my-bucket/p/')).toMatchObject({ bucket: 'my-bucket', region: 'us-west-2', prefix: 'p/' });
    expect(parseLocation('https://s3.us-west-2.amazonaws.com/my-bucket')).toMatchObject({ bucket: 'my-bucket', prefix: '' });
  });

  test('local paths', () => {
    expect(parseLocation('.')).toEqual({ type: 'local', path: process.cwd(), prefix: '', text: '.' });
    expect(parseLocation('/abs/dir')).toMatchObject({ type: 'local', path: '/abs/dir' });
    expect(parseLocation('./rel')).toMatchObject({ path: path.resolve('rel') });
  });

  test.each(['s3://', 's3:/bucket', 's3:bucket', 'gs://bucket', 'https://example.com/b/k', 's3://UPPER_and spaces', ''])('rejects %j', (text) => {
    expect(() => parseLocation(text)).toThrow(UsageError);
  });
});

describe('resolveLocation', () => {
  test('--bucket and --prefix, as in S3P', () => {
    expect(resolveLocation({ bucket: 'my-bucket', prefix: 'a/' })).toMatchObject({ type: 's3', bucket: 'my-bucket', prefix: 'a/' });
    expect(resolveLocation({ location: 's3://my-bucket', prefix: 'a/' })).toMatchObject({ prefix: 'a/' });
  });
  test('a URL path and --prefix together is a usage error', () => {
    expect(() => resolveLocation({ location: 's3://my-bucket/x', prefix: 'a/' })).toThrow(/already has a prefix/);
    expect(() => resolveLocation({ location: 's3://my-bucket', bucket: 'other' })).toThrow(UsageError);
    expect(() => resolveLocation({})).toThrow(/no source/);
  });
});
