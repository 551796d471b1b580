'use strict';
// presign: a URL that lets anyone who holds it GET (or PUT) one object until it expires,
// signed here with the caller's credentials, offline (no request is sent), as `aws s3
// presign` does. The store signs it (S3Store#presignedUrl, the SDK's presigner): the query
// form of SigV4, with the client's own endpoint, addressing style and region rules.
const { UsageError } = require('../errors');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { option } = require('../options');

/**
 * Options: source (s3://bucket/key), method ('get' or 'put'), expiresIn (seconds, or a
 * duration such as 12h; at most 7 days, SigV4's limit), versionId (get), and the connection
 * options. Resolves to {url, method, bucket, key, expiresIn (seconds), expires (ISO time)}.
 */
async function presign(options = {}) {
  const method = String(options.method || 'get').toLowerCase();
  if (method !== 'get' && method !== 'put') throw new UsageError(`--method must be get or put, not ${JSON.stringify(String(options.method))}`);
  const loc = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  if (loc.type !== 's3') throw new UsageError(`presign needs an s3:// path to an object, not ${JSON.stringify(loc.text)}`);
  if (loc.glob) throw new UsageError(`presign takes one object, not a wildcard: ${JSON.stringify(loc.text)}`);
  if (!loc.prefix || loc.prefix.endsWith('/')) throw new UsageError(`presign needs an object's key: ${JSON.stringify(loc.text)} names a bucket or a folder`);
  if (options.noSignRequest) throw new UsageError('presign signs with credentials: --no-sign-request has none');
  if (method === 'put' && options.versionId !== undefined) throw new UsageError('--version-id names a version to read: a PUT writes a new one');
  const expiresIn = Math.round(option(options, 'expiresIn') / 1000);
  const { store } = openStore({ ...options, sourceLocation: loc, maxSockets: 1 }, 'source');
  try {
    const url = await store.presignedUrl(method, loc.prefix, { expiresIn, versionId: options.versionId });
    return { url, method: method.toUpperCase(), bucket: loc.bucket, key: loc.prefix, expiresIn, expires: new Date(Date.now() + expiresIn * 1000).toISOString() };
  } finally {
    store.destroy();
  }
}

module.exports = { presign };
