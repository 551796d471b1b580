'use strict';
// How cp, sync, compare and rm read their paths, as aws-cli and s5cmd users expect:
// - s3://b/key that names an existing object is that one object (cp and rm);
// - s3://b/dir or s3://b/dir/ is the folder dir/: keys keep what follows "dir/";
// - s3://b/logs/*/01/* lists from "logs/" and keeps what follows "logs/" (s5cmd);
// - a local file is one object, a local folder a folder;
// - a target ending in "/" (or an existing local folder) receives a single object under its
//   own name; any other target path names the object. A folder goes into the target folder
//   with exactly one "/" between them.
// --bucket / --prefix / --to-prefix / --add-prefix keep S3P's raw prefixes.
const path = require('path');
const { resolveLocation } = require('../stores/location');
const { openStore } = require('../stores/open-store');
const { UsageError } = require('../errors');
const { badJoin } = require('../transfer/key-map');
const { parseAsOf } = require('../list/versions');
const { findVersionAt } = require('../list/version-at');

const nameOf = (key) => key.slice(key.lastIndexOf('/') + 1);

// A target path as a folder: "" stays the bucket's root, anything else ends in one "/".
const asFolder = (p) => (p === '' || p.endsWith('/') ? p : `${p}/`);

/**
 * @param options the command's options
 * @param o.single whether a path may name one object (cp, rm); sync and compare read folders.
 * @param o.target whether there is a target (not rm)
 * @returns {source, target, single: {key, targetKey} | null} with locations ready for openStore
 */
async function resolvePaths(options, { single = false, target = true } = {}) {
  const source = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  const isObject = single && namesKey(source) && await objectExists(options, source);
  return readPaths(options, source, { isObject, target });
}

// resolvePaths for commands whose paths are always folders (sync, compare): no request.
function folderPaths(options) {
  const source = resolveLocation({ location: options.source, bucket: options.bucket, prefix: options.prefix }, 'source');
  return readPaths(options, source, { isObject: false, target: true });
}

// An S3 path that may name one object: not raw, no wildcard, not a folder.
const namesKey = (loc) => loc.type === 's3' && !loc.raw && !loc.glob && loc.prefix !== '' && !loc.prefix.endsWith('/');

function readPaths(options, source, { isObject, target }) {
  if (namesKey(source)) {
    if (isObject) source.single = source.prefix;
    else { source.prefix += '/'; source.base = source.prefix; source.fromName = true; }
  } else if (source.type === 's3' && !source.raw && !source.glob) {
    source.base = source.prefix;
  }
  if (!target) return { source, target: null, single: source.single !== undefined ? { key: source.single } : null };
  const dst = resolveLocation({ location: options.target, bucket: options.toBucket }, 'target');
  if (dst.glob) throw new UsageError(`a target cannot have wildcards: ${JSON.stringify(options.target)}`);
  let one = null;
  const rawMapping = options.toKey || options.toPrefix || options.addPrefix;
  if (source.single !== undefined && !rawMapping) {
    const name = nameOf(source.single);
    if (dst.type === 's3') {
      one = { key: source.single, targetKey: dst.prefix === '' || dst.prefix.endsWith('/') ? dst.prefix + name : dst.prefix };
      dst.prefix = '';
    } else if (isFolderTarget(options.target, dst.path)) {
      one = { key: source.single, targetKey: name };
    } else {
      one = { key: source.single, targetKey: path.basename(dst.path) };
      dst.path = path.dirname(dst.path);
    }
  } else if (dst.type === 's3' && !source.raw) {
    dst.prefix = asFolder(dst.prefix);
  }
  dst.base = dst.prefix;
  return { source, target: dst, single: one };
}

// A local target receives a single object under its own name when it is a folder already,
// or is written as one ("dir/").
function isFolderTarget(text, p) {
  if (/[\\/]$/.test(text) || text === '.' || text === '..') return true;
  try { return require('fs').statSync(p).isDirectory(); } catch { return false; }
}

// Does the path name an object? One HEAD; with --as-of, its versions (an object of then,
// deleted since, is one too); with --version-id, the version is what the path names (the
// copy asks for it). Not found and forbidden both say no: a listing of the folder then tells.
async function objectExists(options, location) {
  if (options.versionId !== undefined && options.versionId !== null) return true;
  const t = parseAsOf(options.asOf);
  const { store } = openStore({ ...options, sourceLocation: location }, 'source');
  try {
    if (t !== null && typeof store.listVersionsPage === 'function') return Boolean((await findVersionAt(store, location.prefix, t, { signal: options.signal })).item);
    return Boolean(await store.stat(location.prefix, options.signal));
  } catch {
    return false;
  } finally {
    store.destroy();
  }
}

/**
 * Refuses, before anything is written, a mapping that would make keys start with "/" or hold
 * "//" where the source keys have none: the target prefix itself, and (for S3P's raw
 * prefixes) the junction of a prefix that ends inside a name with one that ends in "/",
 * when the source has keys there (one list request).
 */
async function checkMapping(srcLoc, mapper, store, signal) {
  if (!mapper.mapPrefix) return;
  const base = srcLoc.base || '';
  const mapped = mapper.mapPrefix(base);
  const bad = badJoin(base, mapped);
  if (bad) throw new UsageError(`keys under ${JSON.stringify(base)} would be written under ${JSON.stringify(mapped)}: ${bad} where the source keys do not (fix the target path)`);
  if (base === '' || base.endsWith('/') || !(mapped === '' || mapped.endsWith('/')) || !store.listPage) return;
  const page = await store.listPage({ prefix: `${base}/`, maxKeys: 1, signal });
  if (page.items.length) {
    const key = page.items[0].Key;
    throw new UsageError(`${JSON.stringify(key)} would be written as ${JSON.stringify(mapped + key.slice(base.length))}: ${badJoin(key, mapped + key.slice(base.length))} where the source key does not (end the source prefix with "/", as ${JSON.stringify(`${base}/`)}, or drop the target's trailing "/")`);
  }
}

module.exports = { resolvePaths, folderPaths, checkMapping, asFolder };
