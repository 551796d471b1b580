'use strict';
// Where objects live: "s3://bucket/prefix", an S3 https URL, or a local path.
// The path after the bucket is a raw key prefix: no '/' is implied.
const path = require('path');
const { UsageError } = require('../errors');

const BUCKET_RE = /^[a-z0-9][a-z0-9.\-_]{1,254}$/i; // lenient: S3-compatible stores allow more than AWS
const VHOST_RE = /^(.+)\.s3(?:[.-]([a-z0-9-]+))?(?:\.dualstack)?\.amazonaws\.com(?:\.cn)?$/i;
const PATH_RE = /^s3(?:[.-]([a-z0-9-]+))?(?:\.dualstack)?\.amazonaws\.com(?:\.cn)?$/i;

function checkBucket(bucket, text) {
  if (!bucket) throw new UsageError(`invalid location ${JSON.stringify(text)}: no bucket name`);
  if (!BUCKET_RE.test(bucket)) throw new UsageError(`invalid bucket name ${JSON.stringify(bucket)} in ${JSON.stringify(text)}`);
  return bucket;
}

function parseLocation(text) {
  if (typeof text !== 'string' || text === '') throw new UsageError('no source or target given');
  const m = /^s3:\/\/([^/]*)(?:\/(.*))?$/is.exec(text);
  if (m) return { type: 's3', bucket: checkBucket(m[1], text), prefix: m[2] || '', text };
  if (/^s3:/i.test(text)) throw new UsageError(`invalid S3 URL ${JSON.stringify(text)}: expected s3://bucket/prefix`);
  if (/^https?:\/\//i.test(text)) {
    let url;
    try { url = new URL(text); } catch { throw new UsageError(`invalid URL ${JSON.stringify(text)}`); }
    const rawPath = url.pathname.replace(/^\//, '');
    const decode = (s) => { try { return decodeURIComponent(s); } catch { throw new UsageError(`invalid URL encoding in ${JSON.stringify(text)}`); } };
    const vh = VHOST_RE.exec(url.hostname);
    if (vh) return { type: 's3', bucket: checkBucket(vh[1], text), region: regionOf(vh[2]), prefix: decode(rawPath), text };
    const ph = PATH_RE.exec(url.hostname);
    if (ph) {
      const slash = rawPath.indexOf('/');
      const bucket = slash < 0 ? rawPath : rawPath.slice(0, slash);
      return { type: 's3', bucket: checkBucket(bucket, text), region: regionOf(ph[1]), prefix: slash < 0 ? '' : decode(rawPath.slice(slash + 1)), text };
    }
    throw new UsageError(`unsupported URL ${JSON.stringify(text)}: use s3://bucket/prefix with --endpoint-url for other stores`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw new UsageError(`unsupported URL scheme in ${JSON.stringify(text)}`);
  return { type: 'local', path: path.resolve(text), prefix: '', text };
}

function regionOf(s) {
  return s && s !== 'external-1' && !/^(website|accelerate)/.test(s) ? s : undefined;
}

// Combines a positional location with S3P's --bucket / --prefix options.
function resolveLocation({ location, bucket, prefix }, role = 'source') {
  let loc;
  if (location && bucket) throw new UsageError(`give the ${role} either as a URL or with --${role === 'target' ? 'to-bucket' : 'bucket'}, not both`);
  if (location) loc = parseLocation(location);
  else if (bucket) loc = { type: 's3', bucket: checkBucket(bucket, bucket), prefix: '', text: `s3://${bucket}/` };
  else throw new UsageError(`no ${role} given`);
  // A folder's prefix is a key prefix under it (only --prefix gives one).
  if (prefix !== undefined && prefix !== null && prefix !== '') {
    if (loc.prefix) throw new UsageError(`the ${role} URL already has a prefix (${JSON.stringify(loc.prefix)}); drop --prefix or the URL path`);
    loc.prefix = prefix;
  }
  return loc;
}

// Listing options for the same store under another prefix.
function listingAt(loc, prefix) {
  return loc.type === 's3' ? { source: `s3://${loc.bucket}/${prefix}` } : { source: loc.path, prefix };
}

module.exports = { parseLocation, resolveLocation, listingAt };
