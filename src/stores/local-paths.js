'use strict';
// Maps an S3 key to a file under a local root. Keys come from buckets we do not control,
// so anything that could name a file outside the root, or that no file system can hold,
// is refused with a reason rather than "fixed".
const crypto = require('crypto');
const path = require('path');
const { ObjectError } = require('../errors');

const MAX_NAME_BYTES = 255; // NAME_MAX on Linux and macOS
// Files being written get this name in the target folder until complete, so no reader
// ever sees half a file under the final name.
const TEMP_PREFIX = '.s3blitz-tmp-';

/**
 * @param {string} root the local folder
 * @param {string} key an S3 key
 * @param {object} [p] the path module (path.win32 to check Windows paths elsewhere)
 * @returns {{path: string} | {skip: string} | {error: string}}
 */
function keyToPath(root, key, p = path) {
  if (typeof key !== 'string' || key === '') return { error: 'empty key' };
  if (key.includes('\0')) return { error: 'key contains a NUL character' };
  if (key.startsWith('/')) return { error: 'absolute key (starts with "/")' };
  // On Windows "\" separates folders too, so "a\..\b" would be a traversal in disguise.
  if (p.sep === '\\' && key.includes('\\')) return { error: 'key contains "\\", a folder separator here' };
  const folder = key.endsWith('/');
  const segments = (folder ? key.slice(0, -1) : key).split('/');
  for (const s of segments) {
    if (s === '') return { error: 'empty path segment ("//")' };
    if (s === '.' || s === '..') return { error: `"${s}" path segment` };
    const n = Buffer.byteLength(s, 'utf8');
    if (n > MAX_NAME_BYTES) return { error: `path segment of ${n} bytes (file names are limited to ${MAX_NAME_BYTES})` };
  }
  if (folder) return { skip: 'folder marker' };
  const base = p.resolve(root);
  const full = p.resolve(base, ...segments);
  // Belt and braces: whatever slipped through the checks above (drive letters, ...).
  if (!full.startsWith(base.endsWith(p.sep) ? base : base + p.sep)) return { error: 'resolves outside the target folder' };
  return { path: full };
}

// keyToPath for the copy functions: the path, or an ObjectError saying why not.
function localPath(root, key) {
  const m = keyToPath(root, key);
  if (m.skip) throw new ObjectError('skipped', m.skip);
  if (m.error) throw new ObjectError('failed', `cannot be a local file: ${m.error}`);
  return m.path;
}

// The names of one run's temporary files: its token (stores/temp-files.js) then a dash. A
// name without a token (a run with no journal) has no dash, so it never matches any run's.
const runTempPrefix = (token) => `${TEMP_PREFIX}${token}-`;

// A fresh temporary name next to `target` (same folder, so the final rename is atomic),
// carrying the run's token when it has one, so that a resumed run finds what a kill left.
function tempPathFor(target, token) {
  const random = crypto.randomBytes(8).toString('hex');
  return path.join(path.dirname(target), token ? runTempPrefix(token) + random : TEMP_PREFIX + random);
}

/**
 * tempPathFor(target) for a transfer job: when the run keeps a journal, job.onTempDir(folder)
 * journals the folder (once per folder) and resolves to the run's token, before the file exists.
 */
async function jobTempPath(job, target) {
  if (!job.onTempDir) return tempPathFor(target);
  return tempPathFor(target, await job.onTempDir(path.dirname(target)));
}

module.exports = { keyToPath, localPath, tempPathFor, jobTempPath, runTempPrefix, TEMP_PREFIX };
