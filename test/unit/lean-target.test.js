'use strict';
// Where the lean request path sends a request: path-style and virtual-hosted addresses of a
// custom endpoint (with a port and a base path) and of S3's regional endpoints, worked out
// once per endpoint and again when the region changes.
const { LeanRequests } = require('../../src/stores/lean-requests');

const lean = (o) => new LeanRequests({ maxSockets: 1, requestThread: false, client: () => null, ...o });

test('a custom endpoint, path-style: its host and port, the bucket after its base path', () => {
  const l = lean({ bucket: 'b', endpointUrl: 'http://127.0.0.1:9000/base/' });
  expect(l._target('us-east-1', 'k/é')).toEqual({ host: '127.0.0.1:9000', hostname: '127.0.0.1', port: '9000', secure: false, path: '/base/b/k/é' });
  expect(l._target('us-east-1', null)).toEqual({ host: '127.0.0.1:9000', hostname: '127.0.0.1', port: '9000', secure: false, path: '/base/b' });
});

test('a custom endpoint, virtual-hosted: the bucket in the host, no port in the hostname', () => {
  const l = lean({ bucket: 'b', endpointUrl: 'https://s3.example.com:8443', forcePathStyle: false });
  expect(l._target('us-east-1', 'k')).toEqual({ host: 'b.s3.example.com:8443', hostname: 'b.s3.example.com', port: '8443', secure: true, path: '/k' });
  expect(l._target('us-east-1', undefined)).toEqual({ host: 'b.s3.example.com:8443', hostname: 'b.s3.example.com', port: '8443', secure: true, path: '/' });
});

test('S3: virtual-hosted at the region\'s endpoint, path-style for dotted names, the region followed', () => {
  const l = lean({ bucket: 'b', endpointUrl: undefined });
  expect(l._target('eu-west-1', 'k')).toEqual({ host: 'b.s3.eu-west-1.amazonaws.com', hostname: 'b.s3.eu-west-1.amazonaws.com', port: 443, secure: true, path: '/k' });
  expect(l._target('us-west-2', 'k').host).toBe('b.s3.us-west-2.amazonaws.com');
  const dotted = lean({ bucket: 'my.bucket' });
  expect(dotted._target('eu-west-1', 'k')).toEqual({ host: 's3.eu-west-1.amazonaws.com', hostname: 's3.eu-west-1.amazonaws.com', port: 443, secure: true, path: '/my.bucket/k' });
  expect(lean({ bucket: 'arn:aws:s3:us-east-1:1:accesspoint/x' })._target('us-east-1', 'k')).toBeNull();
});
