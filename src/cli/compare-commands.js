'use strict';
// compare and sync: thin shells over the library.
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions } = require('./options');
const { targetOptions, writeOptions, concurrencyOptions, copyLibraryOptions } = require('./copy-command');
const { runAction, writeOut, apiExample } = require('./run');
const { escapeKey, humanBytes, statsText, table, tallyLine } = require('./format');
const { fmtInt, Progress } = require('../progress');
const { CLASSES, parseShow } = require('../stages/compare');

function compareOptions(cmd) {
  return cmd
    .option('--compare-time', 'also a difference: the target is older than the source')
    .option('--checksum', 'read both sides to settle pairs the listings cannot (same size, ETags not comparable)')
    .option('--ignore-etags', 'ETags are not content hashes here (e.g. SSE-KMS, SSE-C): same-size pairs are unknown unless --checksum');
}

function classTable(classes) {
  const rows = [['class', 'objects', 'bytes', 'size']];
  for (const c of CLASSES) rows.push([c, fmtInt(classes[c].objects), fmtInt(classes[c].bytes), humanBytes(classes[c].bytes)]);
  return table(rows, ['l', 'r', 'r', 'r']) + '\n';
}

function pairLine(rec, json) {
  if (json) {
    const side = (i) => (i ? { Size: i.Size, ETag: i.ETag === undefined ? null : i.ETag, LastModified: i.LastModified ? new Date(i.LastModified).toISOString() : null } : null);
    return JSON.stringify({ class: rec.class, key: rec.key, targetKey: rec.targetKey, source: side(rec.source), target: side(rec.target) }) + '\n';
  }
  return `${rec.class}\t${escapeKey(rec.key === null ? rec.targetKey : rec.key)}\n`;
}

const EXTRA = ['compareTime', 'checksum', 'ignoreEtags', 'delete', 'maxDelete', 'force', 'sizeOnly'];

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
  outputOptions(compareOptions(targetOptions(sourceOptions(connectionOptions(cmp)))))
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
`)
    .action(runAction(async ({ args: [source, target], opts, signal }) => {
      const o = libOptions(source, target, opts);
      if (opts.apiExample) return writeOut(apiExample('compare', o));
      const show = new Set(parseShow(opts.show));
      Object.assign(o, { signal, progress: new Progress({ quiet: opts.quiet }), log: (m) => { if (!opts.quiet) process.stderr.write(`s3blitz: ${m}\n`); } });
      let out = '';
      o.onPair = (rec) => {
        if (!show.has(rec.class)) return;
        out += pairLine(rec, opts.json);
        if (out.length > 65536) { process.stdout.write(out); out = ''; }
      };
      delete o.show;
      const r = await lib.compare(o);
      await writeOut(out);
      if (opts.json && !show.size) await writeOut(JSON.stringify({ source: r.source, target: r.target, identical: r.identical, method: r.method, classes: r.classes, complete: r.complete, unmappable: r.unmappable, stats: r.stats }, null, 2) + '\n');
      else if (!opts.json && !show.size) await writeOut(classTable(r.classes) + (r.identical ? 'identical\n' : 'different\n'));
      for (const u of r.unmappable) process.stderr.write(`s3blitz: failed ${JSON.stringify(u.key)}: ${u.reason}\n`);
      if (opts.verbose) process.stderr.write(`method: ${r.methodNote}\n${statsText(r.stats)}\n`);
      return r.identical ? 0 : 1;
    }));

  const sy = program.command('sync')
    .description('make the target like the source: copy what is missing or different, optionally delete extras')
    .argument('[source]', 's3://bucket/prefix or a local folder')
    .argument('[target]', 's3://bucket/prefix or a local folder');
  outputOptions(concurrencyOptions(writeOptions(compareOptions(targetOptions(sourceOptions(connectionOptions(sy)))))))
    .option('--size-only', 'copy only when sizes differ (or the object is missing)')
    .option('--delete', 'delete target objects that are not in the source (after every copy succeeded)')
    .option('--max-delete <n>', 'refuse (exit 4) to delete more than n objects')
    .option('--force', 'delete even past --max-delete or when the source is empty')
    .option('--overwrite', 'accepted for S3P compatibility: sync always overwrites what differs')
    .option('--dryrun', 'show what would be copied and deleted; change nothing')
    .option('--pretend', 'same as --dryrun (S3P)')
    .addHelpText('after', `
Copies what compare finds only in the source, of a different size, or with comparable
and different ETags; with --compare-time also what is newer in the source. A second run
right after a sync copies and deletes nothing.

Examples:
  $ s3blitz sync s3://src-bucket/data/ s3://dst-bucket/data/
  $ s3blitz sync ./site s3://site-bucket --delete --max-delete 100
  $ s3blitz sync s3://src-bucket ./backup --size-only --dryrun
`)
    .action(runAction(async ({ args: [source, target], opts, signal, stopSignal }) => {
      const o = libOptions(source, target, opts);
      if (opts.apiExample) return writeOut(apiExample('sync', o));
      if (opts.debug) o.onConcurrency = (ev) => process.stderr.write(`s3blitz: concurrency ${ev.name} ${ev.limit} (${ev.reason})\n`);
      Object.assign(o, { signal, stopSignal, progress: new Progress({ quiet: opts.quiet }), log: (m) => { if (!opts.quiet) process.stderr.write(`s3blitz: ${m}\n`); } });
      o.onObject = (ev) => {
        if (ev.status === 'planned') { if (!opts.json) process.stdout.write(`copy    ${humanBytes(ev.size).padStart(10)}  ${escapeKey(ev.key)} -> ${escapeKey(ev.targetKey)}\n`); }
        else if (ev.status !== 'copied') process.stderr.write(`s3blitz: ${ev.status} ${JSON.stringify(ev.key)}: ${ev.reason}\n`);
      };
      o.onDelete = (ev) => { if (ev.dryrun && !opts.json) process.stdout.write(`delete  ${humanBytes(ev.size).padStart(10)}  ${escapeKey(ev.key)}\n`); };
      const r = await lib.sync(o);
      for (const u of r.unmappable) process.stderr.write(`s3blitz: failed ${JSON.stringify(u.key)}: ${u.reason}\n`);
      if (opts.json) await writeOut(JSON.stringify(r, null, 2) + '\n');
      else if (!opts.quiet || !r.ok) {
        const line = (label, t) => `${tallyLine(label, t)}\n`;
        let s = r.dryrun ? line('would copy', r.planned) : line('copied', r.copied);
        s += r.dryrun ? line('would delete', r.deleted) : line('deleted', r.deleted);
        for (const k of ['failed', 'changed', 'skipped', 'vanished']) if (r[k].objects) s += line(k, r[k]);
        if (r.deleteRefused) s += `delete skipped: ${r.deleteRefused}\n`;
        await writeOut(s);
      }
      if (opts.verbose) process.stderr.write(`${statsText(r.stats)}\n`);
      if (r.interrupted) process.stderr.write(`s3blitz: interrupted: run the same command again to resume${r.journal ? ` (journal ${r.journal})` : ''}\n`);
      return r.ok ? 0 : 1;
    }, { graceful: true }));
}

module.exports = { registerCompare };
