'use strict';
// Where a report goes: stdout, or --output FILE (written whole, through a temporary file
// renamed into place, so a reader never sees half a report); and the command line a
// Markdown or HTML report says it was made by.
const fs = require('fs');
const path = require('path');
const { UsageError, FatalError } = require('../errors');
const { writeOut } = require('./run');

// Checked before the listing starts, so a typo costs no listing.
function checkOutput(file) {
  if (file === undefined) return;
  if (typeof file !== 'string' || file === '') throw new UsageError('--output needs a file name');
  const dir = path.dirname(path.resolve(file));
  try {
    if (!fs.statSync(dir).isDirectory()) throw new Error('not a folder');
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    throw new UsageError(`--output ${file}: cannot write in ${dir} (${err.code || err.message})`);
  }
  if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new UsageError(`--output ${file}: is a folder`);
}

async function writeReport(opts, text) {
  if (opts.output === undefined) return writeOut(text);
  // Colours are for terminals; no format puts an escape character in a report otherwise.
  text = text.replace(/\x1b\[[0-9;]*m/g, '');
  const file = path.resolve(opts.output);
  const tmp = `${file}.s3blitz-tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, file);
  } catch (err) {
    try { fs.unlinkSync(tmp); } catch { /* never written */ }
    throw new FatalError(`--output ${opts.output}: ${err.code || err.message}`);
  }
  if (!opts.quiet) process.stderr.write(`s3blitz: report written to ${opts.output} (${text.length.toLocaleString('en-US')} bytes)\n`);
  return undefined;
}

// The command as typed, quoted for a POSIX shell where it needs to be.
function commandLine(argv = process.argv.slice(2)) {
  const quote = (a) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);
  return ['s3blitz', ...argv.map(quote)].join(' ');
}

module.exports = { checkOutput, writeReport, commandLine };
