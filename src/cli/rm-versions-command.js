'use strict';
// rm --all-versions: every version and delete marker of a range deleted for good (the
// library's removeVersions). Kept apart from the plain rm of issue 16, to be merged with it.
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, libraryOptions } = require('./options');
const { runAction, writeOut, apiExample, formatOf } = require('./run');
const report = require('../report');
const { Progress } = require('../progress');
const { UsageError } = require('../errors');

function deleteLine(ev) {
  const what = ev.deleteMarker ? 'delete marker' : report.format.humanBytes(ev.size);
  return `${ev.dryrun ? 'would delete' : 'deleted'}  ${what.padStart(13)}  ${ev.versionId}  ${report.format.escapeKey(ev.key)}\n`;
}

function resultText(r) {
  const t = (x) => `${x.objects.toLocaleString('en-US')} (${report.format.humanBytes(x.bytes)})`;
  if (r.dryrun) return `would delete ${r.planned.objects.toLocaleString('en-US')} versions and delete markers, ${report.format.humanBytes(r.planned.bytes)}\n`;
  let s = `deleted ${t(r.deleted)} versions and ${r.deleteMarkers.objects.toLocaleString('en-US')} delete markers\n`;
  if (r.failed.objects) s += `failed  ${t(r.failed)}\n`;
  if (!r.complete) s += 'the listing is incomplete (--max-list-requests)\n';
  return s;
}

function registerRmVersions(program) {
  const cmd = program.command('rm')
    .description('delete every version and delete marker of a range, for good (--all-versions)')
    .argument('[source]', 's3://bucket/prefix');
  outputOptions(sourceOptions(connectionOptions(cmd)))
    .option('--all-versions', 'delete every version and delete marker (DeleteObjects with version ids, 1000 per request, in parallel)')
    .option('--max-delete <n>', 'refuse (exit 4) to delete more than n versions')
    .option('--force', 'delete even past --max-delete')
    .option('--dryrun', 'print every version that would be deleted; delete nothing')
    .addHelpText('after', `
Lists every version first (in parallel, ListObjectVersions), counts them, then deletes
them. --filter and --pattern apply to each version: js:({Key, VersionId, IsLatest,
DeleteMarker, Size, LastModified}) => boolean.

Examples:
  $ s3blitz rm s3://my-bucket --all-versions --dryrun
  $ s3blitz rm s3://my-bucket/tmp/ --all-versions --max-delete 100000
  $ s3blitz rm s3://my-bucket --all-versions --filter 'js:({IsLatest}) => !IsLatest'   # noncurrent versions only
`)
    .action(runAction(async ({ args: [source], opts, signal }) => {
      if (!opts.allVersions) throw new UsageError('rm needs --all-versions on this build (it deletes every version and delete marker of the range)');
      const o = libraryOptions(source, opts);
      for (const k of ['maxDelete', 'force', 'dryrun']) if (opts[k] !== undefined) o[k] = opts[k];
      if (opts.apiExample) return writeOut(apiExample('removeVersions', o));
      const fmt = formatOf(opts);
      Object.assign(o, { signal, progress: new Progress({ quiet: opts.quiet }), log: (m) => { if (!opts.quiet) process.stderr.write(`s3blitz: ${m}\n`); } });
      o.onDelete = (ev) => {
        if (ev.failed) process.stderr.write(report.problemLine('failed', ev.key, `version ${ev.versionId}: ${ev.reason}`));
        else if (fmt === 'text' && (ev.dryrun || opts.verbose)) process.stdout.write(deleteLine(ev));
      };
      const r = await lib.removeVersions(o);
      if (fmt === 'json') await writeOut(JSON.stringify(r, null, 2) + '\n');
      else if (!opts.quiet || !r.ok) await writeOut(resultText(r));
      if (opts.verbose) process.stderr.write(`${report.format.statsText(r.stats)}\n`);
      return r.ok ? 0 : 1;
    }));
}

module.exports = { registerRmVersions };
