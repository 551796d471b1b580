'use strict';
// A line per object, as aws-cli and s5cmd print them (`copy: s3://a/k to s3://b/k`,
// `delete: s3://b/k`, `skip: s3://a/k (exists)`), for --log FILE, or on stdout with
// `--log -` or -v; JSON lines with --json. Lines are written as objects are settled, through
// writeOut on stdout (which clears the progress line first), so the two never mix.
const fs = require('fs');
const { writeOut } = require('./run');
const { UsageError } = require('../errors');

const PROBLEM = { skipped: 'skip', failed: 'failed', changed: 'changed', vanished: 'vanished' };

// 'copy', 'upload' or 'download' by where the object went (mv: 'move').
function copyOp(ev, move) {
  if (move) return 'move';
  const fromS3 = !ev.source || ev.source.startsWith('s3://');
  const toS3 = !ev.target || ev.target.startsWith('s3://');
  return fromS3 && !toS3 ? 'download' : !fromS3 && toS3 ? 'upload' : 'copy';
}

class ObjectLog {
  /** dest: a file name, or '-' for stdout; json: JSON lines. */
  constructor(dest, { json = false } = {}) {
    this.json = json;
    this.toStdout = dest === '-';
    if (!this.toStdout) {
      try {
        fs.writeFileSync(dest, ''); // fails here, in one line, where the file cannot be written
      } catch (err) {
        throw new UsageError(`--log ${dest}: ${err.code || err.message}`);
      }
      this.stream = fs.createWriteStream(dest, { flags: 'a' });
    }
  }

  _write(line) {
    if (this.toStdout) writeOut(line);
    else this.stream.write(line);
  }

  _line(rec, text) {
    this._write(this.json ? `${JSON.stringify(rec)}\n` : `${text}\n`);
  }

  // One object of cp, mv or sync (onObject's event).
  copied(ev, { move = false } = {}) {
    const op = copyOp(ev, move);
    const source = ev.source || ev.key, target = ev.target || ev.targetKey;
    const rec = { op, status: ev.status, source, target, size: ev.size };
    if (ev.versionId !== undefined) rec.versionId = ev.versionId;
    if (ev.provenBy) rec.provenBy = ev.provenBy;
    if (ev.reason) rec.reason = ev.reason;
    if (ev.status === 'copied') return this._line(rec, `${op}: ${source} to ${target}`);
    if (ev.status === 'planned') return this._line(rec, `(dryrun) ${op}: ${source} to ${target}`);
    this._line(rec, `${PROBLEM[ev.status] || ev.status}: ${source}${ev.reason ? ` (${ev.reason})` : ''}`);
  }

  // One key of rm or sync --delete (onDelete's event).
  deleted(ev) {
    const url = ev.url || ev.key;
    const reason = ev.error || ev.reason;
    const status = ev.dryrun ? 'planned' : ev.status || 'deleted';
    const rec = { op: 'delete', status, target: url, size: ev.size };
    if (ev.versionId !== undefined) rec.versionId = ev.versionId;
    if (reason) rec.reason = reason;
    const version = ev.versionId !== undefined ? ` (version ${ev.versionId})` : '';
    if (status === 'deleted') return this._line(rec, `delete: ${url}${version}`);
    if (status === 'planned') return this._line(rec, `(dryrun) delete: ${url}${version}`);
    this._line(rec, `${PROBLEM[status] || status}: ${url}${version}${reason ? ` (${reason})` : ''}`);
  }

  async close() {
    if (this.stream) await new Promise((resolve) => this.stream.end(resolve));
  }
}

// The log a command's options ask for (--log FILE, `--log -`, -v: stdout), or null.
function objectLog(opts, json) {
  if (opts.log === undefined && !opts.verbose) return null;
  return new ObjectLog(opts.log === undefined ? '-' : opts.log, { json });
}

module.exports = { ObjectLog, objectLog };
