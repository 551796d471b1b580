'use strict';
// rm, cat, head, mb, rb: thin shells over the library.
const { pipeline } = require('stream/promises');
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, libraryOptions } = require('./options');
const { runAction, writeOut, writeErr, endOfRun, apiExample, formatOf } = require('./run');
const { objectLog } = require('./object-log');

const writeOutStdout = writeOut;
const report = require('../report');
const { Progress } = require('../progress');
const { help } = require('../options');

const examples = (lines) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
const log = (opts) => (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); };

function rmLibraryOptions(source, opts) {
  const o = libraryOptions(source, opts);
  for (const k of ['maxDelete', 'force', 'deleteConcurrency', 'maxFailures', 'resumeMaxAge', 'allVersions', 'requireConditional']) if (opts[k] !== undefined) o[k] = opts[k];
  if (opts.dryrun || opts.dryRun) o.dryrun = true;
  if (opts.journal !== undefined && opts.journal !== true) o.journal = opts.journal;
  if (opts.resume === false) o.resume = false;
  return o;
}

function rmOptions(cmd) {
  return cmd
    .option('--dryrun', 'print what would be deleted, with sizes; delete nothing')
    .option('--dry-run', 'same as --dryrun')
    .option('--max-delete <n>', 'refuse (exit 4, nothing deleted) to delete more than n objects')
    .option('--all-versions', 'delete every version and delete marker, for good (ListObjectVersions, then DeleteObjects with version ids)')
    .option('--require-conditional', 'refuse (exit 4, nothing deleted) where the server does not honour conditional deletes (each key is deleted only while its ETag is the listed one)')
    .option('--delete-concurrency <n>', help('deleteConcurrency'))
    .option('--max-failures <n>', help('maxFailures'))
    .option('--journal <file>', 'journal file (default: a file per command in $XDG_STATE_HOME/s3blitz)')
    .option('--no-journal', 'keep no journal (the run cannot be resumed)')
    .option('--no-resume', 'ignore the journal of an earlier run and start afresh')
    .option('--resume-max-age <age>', help('resumeMaxAge'))
    .option('--log <file>', 'a line per key to file (- for stdout: the report then goes to stderr), as aws-cli prints them (delete: s3://b/k); JSON lines with --json; -v is --log -');
}

// The report of rm: one line per tally, the failures by reason; the exit code. On stderr
// where stdout has the per-object lines.
async function finishRm(r, opts, log = null) {
  const fmt = formatOf(opts);
  if (log) await log.close();
  const writeOut = log && log.toStdout ? writeErr : writeOutStdout;
  if (fmt === 'json') await writeOut(JSON.stringify(r, null, 2) + '\n');
  else if (!opts.quiet || !r.ok) {
    const what = r.deleteMarkers ? 'versions' : 'objects'; // rm --all-versions
    let text = r.dryrun ? report.format.tallyLine('would delete', r.planned, 13) + '\n' : report.format.tallyLine('deleted', r.deleted, 13) + '\n';
    if (r.deleteMarkers && !r.dryrun) text += `${'deleted'.padEnd(13)}${r.deleteMarkers.objects.toLocaleString('en-US').padStart(12)} delete markers\n`;
    if (r.failed.objects) text += report.format.tallyLine('failed', r.failed, 13) + '\n';
    for (const k of ['changed', 'vanished']) if (r[k] && r[k].objects) text += report.format.tallyLine(k, r[k], 13) + (k === 'changed' ? '  (rewritten since they were listed: not deleted)' : '') + '\n';
    if (what === 'versions') text = text.replace(/ (objects|object ) /g, (m, w) => (w === 'objects' ? ' versions ' : ' version  '));
    if (r.complete === false) text += 'the listing is incomplete (--max-list-requests)\n';
    await writeOut(text);
  }
  if (r.failureReasons.length) for (const f of r.failureReasons) writeErr(`s3blitz: ${f.count.toLocaleString('en-US')} failed: ${f.reason}\n`);
  return endOfRun(r, opts, 'deleted');
}

// What rm says of each object (or version) as it goes: dry-run lines and failures, and the
// per-object log's lines.
function onDelete(fmt, log) {
  return (ev) => {
    if (log) log.deleted(ev);
    if (ev.dryrun) { if (fmt === 'text' && !(log && log.toStdout)) writeOutStdout(report.plannedDeleteLine(ev)); return; }
    if (!ev.error && !ev.failed) return;
    const reason = ev.error || ev.reason;
    writeErr(report.problemLine(ev.status || 'failed', ev.key, ev.versionId === undefined ? reason : `version ${ev.versionId}: ${reason}`));
  };
}

function registerObjects(program) {
  const rmCmd = program.command('rm').alias('delete')
    .description('delete one object, a folder, a wildcard\'s matches or a filtered listing (DeleteObjects, 1000 keys a request, many at once)')
    .argument('[source]', 's3://bucket/key, s3://bucket/folder/, or s3://bucket/logs/*.gz');
  outputOptions(rmOptions(sourceOptions(connectionOptions(rmCmd))))
    .addHelpText('after', examples([
      's3blitz rm s3://my-bucket/old/report.csv',
      's3blitz rm s3://my-bucket/tmp/ --dryrun',
      "s3blitz rm 's3://my-bucket/logs/2023-*' --max-delete 100000",
      "s3blitz rm s3://my-bucket/data/ --exclude '*' --include '*.tmp'",
      's3blitz rm s3://my-bucket/tmp/ --all-versions --dryrun',
      "s3blitz rm s3://my-bucket --all-versions --filter 'js:({IsLatest}) => !IsLatest'   # noncurrent versions only",
    ]) + `
A path that names an object deletes that object; a folder path (with or without the
trailing "/") deletes what is under "folder/". --prefix is raw: --prefix logs deletes
logs-old.txt too. The whole selection is listed before anything is deleted; every key
that could not be deleted is named. Versioned buckets get delete markers; --all-versions
deletes every version and delete marker for good instead (--filter and --pattern see each
version: js:({Key, VersionId, IsLatest, DeleteMarker, Size, LastModified}) => boolean).
`)
    .action(runAction(async ({ args: [source], opts, signal, stopSignal }) => {
      const o = rmLibraryOptions(source, opts);
      if (opts.apiExample) return writeOut(apiExample('rm', o));
      const fmt = formatOf(opts);
      Object.assign(o, { signal, stopSignal, log: log(opts), progress: new Progress({ quiet: opts.quiet, verb: 'deleted' }) });
      const objLog = objectLog(opts, fmt === 'json');
      o.onDelete = onDelete(fmt, objLog);
      return finishRm(await lib.rm(o), opts, objLog);
    }, { graceful: true }));

  outputOptions(connectionOptions(program.command('cat')), { json: false })
    .description('write an object (or a byte range of it) to stdout')
    .argument('<object>', 's3://bucket/key')
    .option('--range <range>', 'bytes FIRST-LAST (0-99), FIRST- or -SUFFIX (the last SUFFIX bytes)')
    .option('--version-id <id>', 'that version of the object')
    .option('--as-of <time>', 'the object as it was then: its newest version at or before it (ISO-8601 with a zone, or a date)')
    .addHelpText('after', examples(['s3blitz cat s3://my-bucket/config.json', 's3blitz cat s3://my-bucket/big.log --range -1000', 's3blitz cat s3://my-bucket/data.bin --range 0-1023 | xxd | head',
      's3blitz cat s3://my-bucket/config.json --version-id 3HL4kqtJlcpXroDTDmJ', 's3blitz cat s3://my-bucket/config.json --as-of 2024-06-01T12:00:00Z']))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const o = libraryOptions(source, opts);
      if (opts.range !== undefined) o.range = opts.range;
      if (opts.versionId !== undefined) o.versionId = opts.versionId;
      if (opts.apiExample) return writeOut(apiExample('cat', o, { stream: true }));
      return toStdout(await lib.cat({ ...o, signal }));
    }));

  outputOptions(connectionOptions(program.command('head')), { json: false })
    .description('HeadObject as JSON: size, dates, ETag, content headers, metadata (and tags with --tags)')
    .argument('<object>', 's3://bucket/key')
    .option('--tags', 'also the object\'s tags (GetObjectTagging)')
    .option('--version-id <id>', 'that version of the object')
    .option('--as-of <time>', 'the object as it was then: its newest version at or before it')
    .addHelpText('after', examples(['s3blitz head s3://my-bucket/report.csv', 's3blitz head s3://my-bucket/report.csv --tags | jq .Metadata',
      's3blitz head s3://my-bucket/report.csv --version-id 3HL4kqtJlcpXroDTDmJ']))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const o = libraryOptions(source, opts);
      if (opts.tags) o.tags = true;
      if (opts.versionId !== undefined) o.versionId = opts.versionId;
      if (opts.apiExample) return writeOut(apiExample('head', o));
      const r = await lib.head({ ...o, signal });
      await writeOut(JSON.stringify(r, null, 2) + '\n');
      return 0;
    }));

  outputOptions(connectionOptions(program.command('presign')))
    .description('a URL that lets anyone who has it download (or upload) one object until it expires; signed here, no request sent')
    .argument('<object>', 's3://bucket/key')
    .option('--expires-in <time>', help('expiresIn') + '; at most 7d')
    .option('--method <method>', 'get (download, the default) or put (upload: curl -T file URL)')
    .option('--version-id <id>', 'that version of the object (get)')
    .addHelpText('after', examples(['s3blitz presign s3://my-bucket/report.pdf', 's3blitz presign s3://my-bucket/report.pdf --expires-in 7d',
      's3blitz presign s3://my-bucket/inbox/upload.bin --method put --expires-in 15m   # then: curl -T upload.bin "$URL"']))
    .action(runAction(async ({ args: [source], opts }) => {
      const o = libraryOptions(source, opts);
      for (const k of ['expiresIn', 'method', 'versionId']) if (opts[k] !== undefined) o[k] = opts[k];
      if (opts.apiExample) return writeOut(apiExample('presign', o));
      const r = await lib.presign(o);
      await writeOut(formatOf(opts) === 'json' ? JSON.stringify(r, null, 2) + '\n' : `${r.url}\n`);
      return 0;
    }));

  outputOptions(connectionOptions(program.command('mb')), { json: false })
    .description('make a bucket')
    .argument('<bucket>', 's3://bucket')
    .addHelpText('after', examples(['s3blitz mb s3://my-new-bucket', 's3blitz mb s3://my-eu-bucket --region eu-west-1']))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const o = libraryOptions(source, opts);
      if (opts.apiExample) return writeOut(apiExample('mb', o));
      const r = await lib.mb({ ...o, signal });
      if (!opts.quiet) await writeOut(`make_bucket: ${r.bucket}\n`);
      return 0;
    }));

  const rbCmd = outputOptions(rmOptions(connectionOptions(program.command('rb'))))
    .description('remove a bucket; with --force, delete its objects first (rm\'s rules: --max-delete, --dryrun)')
    .argument('<bucket>', 's3://bucket')
    .option('--force', 'delete every object first (with --all-versions, every version and delete marker), then the bucket')
    .addHelpText('after', examples(['s3blitz rb s3://my-old-bucket', 's3blitz rb s3://my-old-bucket --force --max-delete 50000', 's3blitz rb s3://my-old-bucket --force --dryrun',
      's3blitz rb s3://my-versioned-bucket --force --all-versions']));
  rbCmd.action(runAction(async ({ args: [source], opts, signal, stopSignal }) => {
    const o = rmLibraryOptions(source, opts);
    if (opts.apiExample) return writeOut(apiExample('rb', o));
    Object.assign(o, { signal, stopSignal, log: log(opts), progress: new Progress({ quiet: opts.quiet, verb: 'deleted' }) });
    const fmt = formatOf(opts);
    const objLog = objectLog(opts, fmt === 'json');
    o.onDelete = onDelete(fmt, objLog);
    const r = await lib.rb(o);
    let code = 0;
    if (r.emptied) code = await finishRm(r.emptied, { ...opts, json: false, quiet: opts.quiet || fmt === 'json' }, objLog);
    else if (objLog) await objLog.close();
    if (fmt === 'json') await writeOut(JSON.stringify(r, null, 2) + '\n');
    else if (r.removed && !opts.quiet) await writeOut(`remove_bucket: ${r.bucket}\n`);
    else if (!r.removed && !opts.dryrun) writeErr(`s3blitz: bucket ${r.bucket} was not removed: some objects remain\n`);
    return r.ok ? code : 1;
  }, { graceful: true }));
}

// An object's bytes to stdout, with backpressure; a closed pipe ends quietly (main.js).
async function toStdout(r) {
  await pipeline(r.stream, process.stdout, { end: false }).catch((err) => {
    if (err && err.code === 'EPIPE') return;
    throw err;
  });
  return 0;
}

module.exports = { registerObjects, toStdout };
