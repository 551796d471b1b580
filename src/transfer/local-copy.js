'use strict';
// Local file -> local file (folder to folder). Copies to a temporary name next to the
// target and renames it into place, like download, keeping the source's mtime so a later
// sync compares the two as equal. Copy-on-write file systems clone instead of copying. The
// temp name is a journaled run's, as in download.
const fs = require('fs');
const path = require('path');
const { localPath, jobTempPath } = require('../stores/local-paths');
const { ObjectError } = require('./outcome');

const { COPYFILE_EXCL, COPYFILE_FICLONE } = fs.constants;

async function localCopy(job) {
  const { item, src, dst, key } = job;
  const from = localPath(src.root, item.Key);
  const target = localPath(dst.root, key);
  const before = await statSource(from);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  const tmp = await jobTempPath(job, target);
  try {
    await fs.promises.copyFile(from, tmp, COPYFILE_EXCL | COPYFILE_FICLONE);
    const after = await statSource(from);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw new ObjectError('changed', 'changed while it was being copied');
    }
    await fs.promises.utimes(tmp, before.atime, before.mtime);
    await fs.promises.rename(tmp, target);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true }).catch(() => {});
    if (err.code === 'ENOENT' && err.path === from) throw new ObjectError('vanished', 'deleted since it was listed');
    throw err;
  }
  job.stats.bytes += before.size;
  return { status: 'copied', bytes: before.size };
}

async function statSource(file) {
  try {
    return await fs.promises.stat(file);
  } catch (err) {
    if (err.code === 'ENOENT') throw new ObjectError('vanished', 'deleted since it was listed');
    throw err;
  }
}

module.exports = { localCopy };
