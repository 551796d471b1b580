'use strict';
// The temporary files a killed run leaves in a local target. A journaled run has a token, kept
// in its journal, that every one of its temp files is named with (.s3blitz-tmp-<token>-<random>,
// local-paths.js), and the journal names each folder the run made one in before the first
// was made. A kill -9 leaves the files of the copies in flight; the run that takes the
// journal over removes exactly those: files named with that token, in those folders. Another
// process writing into the same folders (another shard) has a token of its own and keeps its files.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { runTempPrefix } = require('./local-paths');

const newRunToken = () => crypto.randomBytes(6).toString('hex');
// A token read back from a journal is used only when it looks like one: a prefix to delete by
// must never be shorter or wider than one run's.
const isRunToken = (t) => typeof t === 'string' && /^[0-9a-f]{12,64}$/.test(t);

const CONCURRENCY = 8; // folders read at once

/**
 * Removes the files named .s3blitz-tmp-<token>-* directly in each of dirs (absolute paths;
 * a folder that is gone is skipped). Folders are read as streams: memory stays small whatever
 * their size. Resolves to {removed, failed: [{path, reason}] (at most 10 named), failedCount}.
 */
async function removeRunTempFiles({ token, dirs }) {
  const out = { removed: 0, failed: [], failedCount: 0 };
  if (!isRunToken(token)) return out;
  const prefix = runTempPrefix(token);
  const fail = (file, err) => {
    out.failedCount++;
    if (out.failed.length < 10) out.failed.push({ path: file, reason: err.code || err.message });
  };
  const queue = [...dirs].filter((d) => typeof d === 'string' && path.isAbsolute(d));
  const worker = async () => {
    for (let dir = queue.pop(); dir !== undefined; dir = queue.pop()) {
      let handle;
      try { handle = await fs.promises.opendir(dir); } catch (err) {
        if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') fail(dir, err);
        continue;
      }
      try {
        for await (const e of handle) {
          if (!e.name.startsWith(prefix) || e.isDirectory()) continue;
          const file = path.join(dir, e.name);
          try {
            await fs.promises.unlink(file);
            out.removed++;
          } catch (err) {
            if (err.code !== 'ENOENT') fail(file, err);
          }
        }
      } catch (err) {
        fail(dir, err); // the folder could not be read to its end
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

/** What removeRunTempFiles did, in words for the run's log; '' when it found nothing. */
function tempCleanupText(r, token) {
  if (!r || (!r.removed && !r.failedCount)) return '';
  const files = (n) => `${n.toLocaleString('en-US')} temporary file${n === 1 ? '' : 's'}`;
  let text = `removed ${files(r.removed)} the earlier run left (${runTempPrefix(token)}*)`;
  if (r.failedCount) text += `; could not remove ${files(r.failedCount)}, e.g. ${r.failed[0].path}: ${r.failed[0].reason}`;
  return text;
}

module.exports = { newRunToken, isRunToken, removeRunTempFiles, tempCleanupText };
