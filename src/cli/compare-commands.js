'use strict';
// compare and sync: thin shells over the library.
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, reportOptions, versionOptions, metadataOptions } = require('./options');
const { checkOutput, writeReport, commandLine } = require('./report-output');
const { UsageError } = require('../errors');
const { targetOptions, writeOptions, concurrencyOptions, copyLibraryOptions, copyProgressLines, finishCopy, LOG_HELP, debugConcurrency } = require('./copy-command');
const { objectLog } = require('./object-log');
const { runAction, writeOut, writeErr, apiExample, formatOf } = require('./run');
const report = require('../report');
const { Progress } = require('../progress');
const { CLASSES, parseShow } = require('../stages/compare');

function compareOptions(cmd) {
  return cmd
    .option('--compare-time', 'also a difference: the target is older than the source')
    .option('--checksum [how]', 'settle pairs the listings cannot (same size, ETags not comparable or different) by stored full-object checksums (one HEAD per side; a file is hashed in its object\'s algorithm), else by ETags; --checksum=download also reads objects nothing else settles')
    .option('--ignore-etags', 'ETags are not content hashes here (e.g. SSE-KMS, SSE-C): same-size pairs are unknown unless --checksum');
}

const EXTRA = ['compareTime', 'checksum', 'ignoreEtags', 'delete', 'maxDelete', 'force', 'sizeOnly', 'requireConditional'];

function libOptions(source, target, opts) {
  const o = copyLibraryOptions(source, target, opts);
  for (const k of EXTRA) if (opts[k] !== undefined) o[k] = opts[k];
  if (opts.show) o.show = opts.show;
  return o;
}

function registerCompare(program) {
  const cmp = program.command('compare')
    .description('compare a source with a target: what is missing, extra or different, in one merge of two listings')
    .argument('[source]', 's3://bucket/prefix or a local folder')
    .argument('[target]', 's3://bucket/prefix or a local folder');
  reportOptions(outputOptions(compareOptions(targetOptions(metadataOptions(versionOptions(sourceOptions(connectionOptions(cmp)), { all: false }), { prefix: 'filter-' })))))
    .option('--show <classes>', `list the keys of these classes (comma-separated: ${CLASSES.join(', ')}, all)`)
    .addHelpText('after', `
Classes, in precedence: only-source, only-target, size-differs, content-differs (ETags
comparable and different), older (with --compare-time), unknown (same size, content not
provable from listings), same. Exit code 0 when nothing differs (unknown does not count),
1 when something does, 3 on a fatal error.

Examples:
  $ s3blitz compare s3://src-bucket/data/ s3://dst-bucket/data/
  $ s3blitz compare s3://src-bucket s3://dst-bucket --show only-source,size-differs > todo.txt
  $ s3blitz compare ./site s3://site-bucket --checksum --show all --json
  $ s3blitz compare s3://src-bucket s3://dst-bucket --output diff.html
  $ s3blitz compare s3://src-bucket s3://backup-bucket --as-of 2024-06-01T00:00:00Z
`)
    .action(runAction(async ({ args: [source, target], opts, signal }) => {
      const o = libOptions(source, target, opts);
      if (opts.apiExample) return writeOut(apiExample('compare', o));
      const show = new Set(parseShow(opts.show));
      Object.assign(o, { signal, progress: new Progress({ quiet: opts.quiet }), log: (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); } });
      const fmt = formatOf(opts);
      if (show.size && !report.pairLine[fmt]) throw new UsageError(`--show prints one line per key, as text or json, not ${fmt}`);
      checkOutput(opts.output);
      let out = '';
      o.onPair = (rec) => {
        if (!show.has(rec.class)) return;
        out += report.pairLine[fmt](rec);
        if (out.length > 65536) { writeOut(out); out = ''; }
      };
      delete o.show;
      const r = await lib.compare(o);
      await writeOut(out);
      if (!show.size) await writeReport(opts, lib.report(r, { format: fmt, command: commandLine(), human: opts.humanReadable }));
      for (const u of r.unmappable) writeErr(report.problemLine('failed', u.key, u.reason));
      if (opts.verbose) writeErr(`method: ${r.methodNote}\n${report.format.statsText(r.stats)}\n`);
      return r.identical ? 0 : 1;
    }));

  const sy = program.command('sync')
    .description('make the target like the source: copy what is missing or different, optionally delete extras')
    .argument('[source]', 's3://bucket/prefix or a local folder')
    .argument('[target]', 's3://bucket/prefix or a local folder');
  outputOptions(concurrencyOptions(writeOptions(compareOptions(targetOptions(metadataOptions(versionOptions(sourceOptions(connectionOptions(sy)), { all: false }), { prefix: 'filter-' }))))))
    .option('--size-only', 'copy only when sizes differ (or the object is missing)')
    .option('--delete', 'delete target objects that are not in the source (after every copy succeeded)')
    .option('--max-delete <n>', 'refuse (exit 4) to delete more than n objects')
    .option('--force', 'delete even past --max-delete or when the source is empty')
    .option('--require-conditional', 'with --delete: refuse (exit 4, nothing deleted) where the server does not honour conditional deletes')
    .option('--overwrite', 'accepted for S3P compatibility: sync always overwrites what differs')
    .option('--dryrun', 'show what would be copied and deleted; change nothing')
    .option('--dry-run', 'same as --dryrun')
    .option('--pretend', 'same as --dryrun (S3P)')
    .option('--log <file>', LOG_HELP)
    .addHelpText('after', `
Copies what compare finds only in the source, of a different size, or with comparable
and different ETags; with --compare-time also what is newer in the source. A second run
right after a sync copies and deletes nothing.

Examples:
  $ s3blitz sync s3://src-bucket/data/ s3://dst-bucket/data/
  $ s3blitz sync ./site s3://site-bucket --delete --max-delete 100
  $ s3blitz sync s3://src-bucket ./backup --size-only --dryrun
  $ s3blitz sync s3://src-bucket s3://restore-bucket --as-of 2024-06-01T00:00:00Z --delete
`)
    .action(runAction(async ({ args: [source, target], opts, signal, stopSignal }) => {
      const o = libOptions(source, target, opts);
      if (opts.apiExample) return writeOut(apiExample('sync', o));
      if (opts.debug) o.onConcurrency = debugConcurrency;
      Object.assign(o, { signal, stopSignal, progress: new Progress({ quiet: opts.quiet }), log: (m) => { if (!opts.quiet) writeErr(`s3blitz: ${m}\n`); } });
      const fmt = formatOf(opts);
      const log = objectLog(opts, fmt === 'json');
      o.onObject = copyProgressLines(fmt, { marked: true, log });
      o.onDelete = (ev) => {
        if (log) log.deleted(ev);
        if (ev.dryrun) { if (fmt === 'text' && !(log && log.toStdout)) writeOut(report.plannedDeleteLine(ev)); } else if (ev.status) writeErr(report.problemLine(ev.status, ev.key, ev.reason));
      };
      const r = await lib.sync(o);
      for (const u of r.unmappable) writeErr(report.problemLine('failed', u.key, u.reason));
      const unchecked = r.classes.unknown.objects;
      if (o.checksum && o.checksum !== 'download' && unchecked && !opts.quiet) {
        writeErr(`s3blitz: ${unchecked.toLocaleString('en-US')} pairs of the same size have no stored checksum or ETag in common and were left as they are (--checksum=download reads them)\n`);
      }
      return finishCopy(report.copy(r), r, fmt, opts, log);
    }, { graceful: true }));
}

module.exports = { registerCompare };
