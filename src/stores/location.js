'use strict';
// Where objects live: "s3://bucket/prefix", an S3 https URL, or a local path.
// The path after the bucket is a key prefix as given (ls, summarize, each and map list what
// starts with it, as aws s3 ls does); cp, sync, compare and rm read it as a single object or
// a folder (stages/paths.js). '*' and '?' in it are wildcards (keys/globs.js); --prefix is
// always raw.
const fs = require('fs');
const path = require('path');
const { UsageError } = require('../errors');
const { pathGlob } = require('../keys/globs');

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
  if (m) return s3Location(checkBucket(m[1], text), m[2] || '', text);
  if (/^s3:/i.test(text)) throw new UsageError(`invalid S3 URL ${JSON.stringify(text)}: expected s3://bucket/prefix`);
  if (/^https?:\/\//i.test(text)) {
    let url;
    try { url = new URL(text); } catch { throw new UsageError(`invalid URL ${JSON.stringify(text)}`); }
    const rawPath = url.pathname.replace(/^\//, '');
    const decode = (s) => { try { return decodeURIComponent(s); } catch { throw new UsageError(`invalid URL encoding in ${JSON.stringify(text)}`); } };
    const vh = VHOST_RE.exec(url.hostname);
    if (vh) return { ...s3Location(checkBucket(vh[1], text), decode(rawPath), text), region: regionOf(vh[2]) };
    const ph = PATH_RE.exec(url.hostname);
    if (ph) {
      const slash = rawPath.indexOf('/');
      const bucket = slash < 0 ? rawPath : rawPath.slice(0, slash);
      return { ...s3Location(checkBucket(bucket, text), slash < 0 ? '' : decode(rawPath.slice(slash + 1)), text), region: regionOf(ph[1]) };
    }
    throw new UsageError(`unsupported URL ${JSON.stringify(text)}: use s3://bucket/prefix with --endpoint-url for other stores`);
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw new UsageError(`unsupported URL scheme in ${JSON.stringify(text)}`);
  return { type: 'local', path: path.resolve(text), prefix: '', text };
}

// base: the folder the path lies in (what --include / --exclude and key mapping are
// relative to); glob: the wildcard test of a whole key, when the path has wildcards.
function s3Location(bucket, keyPath, text) {
  const glob = pathGlob(keyPath);
  if (glob) return { type: 's3', bucket, prefix: glob.prefix, base: glob.base, glob, text };
  return { type: 's3', bucket, prefix: keyPath, base: keyPath.slice(0, keyPath.lastIndexOf('/') + 1), text };
}

function regionOf(s) {
  return s && s !== 'external-1' && !/^(website|accelerate)/.test(s) ? s : undefined;
}

// Combines a positional location with S3P's --bucket / --prefix options.
function resolveLocation({ location, bucket, prefix }, role = 'source') {
  let loc;
  if (location && bucket) throw new UsageError(`give the ${role} either as a URL or with --${role === 'target' ? 'to-bucket' : 'bucket'}, not both`);
  if (location) loc = parseLocation(location);
  else if (bucket) loc = { type: 's3', bucket: checkBucket(bucket, bucket), prefix: '', base: '', text: `s3://${bucket}/` };
  else throw new UsageError(`no ${role} given`);
  if (loc.type === 'local') loc = localSource(loc, role);
  // A folder's prefix is a key prefix under it (only --prefix gives one). It is raw: the
  // base for key mapping is the prefix itself, and no wildcard is read in it.
  if (prefix !== undefined && prefix !== null && prefix !== '') {
    if (loc.prefix || loc.glob) throw new UsageError(`the ${role} URL already has a prefix (${JSON.stringify(loc.glob ? loc.glob.pattern : loc.prefix)}); drop --prefix or the URL path`);
    loc.prefix = prefix;
    loc.base = prefix;
    loc.raw = true;
  }
  return loc;
}

// A source that is not an s3:// URL must be a local folder or file: anything else is a
// mistyped URL, not a fatal error. A file is the one key of its folder.
function localSource(loc, role) {
  if (role !== 'source') return { ...loc, base: '' };
  let st;
  try { st = fs.statSync(loc.path); } catch (err) {
    if (err.code !== 'ENOENT') return { ...loc, base: '' }; // the store says what is wrong (exit 3)
    const hint = /^[a-z0-9][a-z0-9.\-_]{1,62}\//.test(loc.text) ? ` (did you mean s3://${loc.text}?)` : '';
    throw new UsageError(`${JSON.stringify(loc.text)} is neither an s3:// URL nor a local file or folder${hint}`);
  }
  if (st.isDirectory()) return { ...loc, base: '' };
  const name = path.basename(loc.path);
  return { ...loc, path: path.dirname(loc.path), prefix: name, base: '', single: name };
}

module.exports = { parseLocation, resolveLocation };
