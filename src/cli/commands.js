'use strict';
// The read-only commands: thin shells over the library.
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, libraryOptions, reportOptions, versionOptions, metadataOptions } = require('./options');
const { checkOutput, writeReport, commandLine } = require('./report-output');
const { runAction, writeOut, writeErr, apiExample, formatOf } = require('./run');
const report = require('../report');
const { itemJson, itemLong, itemLongHuman, chunkLines, statsText, scanText, estimateText, escapeKey, humanBytes } = report.format;
const { levelEntries } = require('../stages/one-level');
const { RequestStats } = require('../stats');
const { Progress } = require('../progress');
const { resolveShard, shardOptions, shardInfo, shardText, writeResult } = require('../stages/shards');
const { help } = require('../options');
const { UsageError } = require('../errors');
const { batchCsvFormat, batchRows } = require('./batch-csv');

function common(cmd) {
  return outputOptions(metadataOptions(versionOptions(sourceOptions(connectionOptions(cmd)))));
}

function notice(opts) {
  return (msg) => { if (!opts.quiet) writeErr(`s3blitz: ${msg}\n`); };
}

// The end of a read command: statistics, and why the listing is incomplete when it is (an
// interruption says so itself); a wildcard that matched nothing says so and exits 1.
function finish(opts, res) {
  if (opts.verbose && res.stats) writeErr(`${statsText(res.stats)}\n`);
  if (res.complete === false && opts.maxListRequests !== undefined && !opts.quiet && (opts.format === 's3-batch-csv' || formatOf(opts) === 'text')) writeErr('s3blitz: the listing is incomplete (--max-list-requests)\n');
  if (res.noMatch) { writeErr(`s3blitz: ${res.noMatch}\n`); return 1; }
  return 0;
}

function prepare(fnName, source, opts, signal, extra = {}) {
  const libOpts = { ...libraryOptions(source, opts), ...extra };
  if (opts.apiExample) return { example: apiExample(fnName, libOpts) };
  libOpts.signal = signal;
  libOpts.log = notice(opts);
  libOpts.progress = new Progress({ quiet: opts.quiet });
  // Objects a metadata scan could not read are named as they are found.
  libOpts.onProblem = (p) => writeErr(report.problemLine(p.status, p.key, p.reason));
  return { libOpts };
}

// --dryrun of a metadata scan: its requests and price, from the listing alone.
async function estimate(libOpts, opts) {
  if (!libOpts.withMetadata && !libOpts.withTags && !libOpts.by) throw new UsageError('--dryrun estimates a metadata scan: give --metadata, --tags or --by');
  delete libOpts.onProblem;
  const e = await lib.estimateMetadataScan(libOpts);
  await writeOut(formatOf(opts) === 'json' ? JSON.stringify(e, null, 2) + '\n' : estimateText(e));
  return 0;
}

// After a metadata scan: what it cost (stderr), and exit 1 when some objects failed.
function scanDone(scan, opts) {
  if (!scan) return 0;
  if (!opts.quiet) writeErr(`s3blitz: ${scanText(scan)}\n`);
  return scan.failed ? 1 : 0;
}

// ls --delimiter / (--no-recursive): one level as aws s3 ls prints it, names relative to the
// folder the path names (up to its last "/"); JSON lines with --json (in the same order).
async function listLevel(source, opts, signal) {
  const o = { ...libraryOptions(source, opts), delimiter: opts.delimiter === undefined ? '/' : opts.delimiter };
  if (opts.startAfter !== undefined) o.startAfter = opts.startAfter;
  if (opts.format !== undefined && opts.format !== 'text' && opts.format !== 'json') throw new UsageError(`--delimiter prints text or json, not ${JSON.stringify(opts.format)}`);
  if (opts.apiExample) return writeOut(apiExample('ls', o));
  const json = formatOf(opts) === 'json';
  const stats = new RequestStats();
  const base = levelBase(o);
  let folders = 0, objects = 0, group = [];
  // As aws-cli prints a page of 1,000 entries (a sequential listing's): its folders, then its
  // objects. The entries come in key order, so each run of 1,000 is such a page.
  const flush = async () => {
    let text = '';
    for (const pass of [true, false]) {
      for (const e of group) {
        if ((e.Prefix !== undefined) !== pass) continue;
        if (pass) text += json ? `${JSON.stringify({ Prefix: e.Prefix })}\n` : `${'PRE'.padStart(30)} ${escapeKey(e.Prefix.slice(base))}\n`;
        else text += json ? `${itemJson(e)}\n` : `${localTime(e.LastModified)} ${(opts.humanReadable ? humanBytes(e.Size) : String(e.Size)).padStart(10)} ${escapeKey(e.Key.slice(base))}\n`;
      }
    }
    group = [];
    await writeOut(text);
  };
  for await (const e of levelEntries({ ...o, signal, stats })) {
    if (e.Prefix !== undefined) folders++; else objects++;
    group.push(e);
    if (group.length === 1000) await flush();
  }
  await flush();
  if (opts.verbose) writeErr(`${statsText(stats.toJSON())}\n`);
  if (folders + objects === 0 && !opts.quiet) writeErr(`s3blitz: nothing at ${o.source || o.bucket}\n`);
  return 0;
}

// Where the names of a level start: after the path's last "/" (the whole key for a local folder's).
function levelBase(o) {
  const src = String(o.source || '');
  if (!/^(s3|https?):\/\//i.test(src) && !o.bucket) return 0;
  const m = /^s3:\/\/[^/]+\/?(.*)$/i.exec(src);
  const prefix = m ? m[1] : o.prefix || '';
  return prefix.lastIndexOf('/') + 1;
}

// aws-cli's date: local time, to the second.
function localTime(d) {
  if (!d) return ''.padEnd(19);
  const t = new Date(d);
  const p = (n) => String(n).padStart(2, '0');
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())} ${p(t.getHours())}:${p(t.getMinutes())}:${p(t.getSeconds())}`;
}

function register(program) {
  const examples = (lines) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

  common(program.command('ls').alias('list'))
    .description('list keys, one per line, in S3 key order')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder')
    .option('-l, --long', 'date, size and key (versions: also the version id, * latest, D delete marker)')
    .option('--unordered', 'print pages as they arrive (faster; order not guaranteed)')
    .option('--dryrun', 'with --metadata or --tags: print the requests and price of the scan, from the listing alone')
    .option('--format <format>', 'text, json, or s3-batch-csv: an S3 Batch Operations manifest (bucket,key with keys URL-encoded; with --all-versions also the version id)')
    .option('--delimiter <char>', 'one level, as aws s3 ls shows it: "PRE folder/" lines and the objects directly in the folder ("/" only)')
    .option('--no-recursive', 'same as --delimiter /')
    .option('--recursive', 'every key under the path: the default (aws-cli\'s flag, accepted)')
    .addHelpText('after', examples([
      's3blitz ls s3://my-bucket/logs/2024/',
      's3blitz ls s3://my-bucket/ --delimiter /          # one level: PRE folders and the objects beside them',
      's3blitz ls s3://my-bucket --long --pattern .parquet',
      's3blitz ls --bucket my-bucket --start-after a --stop-at m --json',
      "s3blitz ls s3://my-bucket --filter 'js:({Size}) => Size > 1e9' --unordered > big.txt",
      's3blitz ls s3://my-bucket --all-versions --json',
      's3blitz ls s3://my-bucket --as-of 2024-06-01T12:00:00Z',
      "s3blitz ls s3://my-bucket --metadata --tags --json --filter 'js:({ContentType}) => ContentType === \"text/html\"'",
      's3blitz ls s3://my-bucket --metadata --dryrun',
      's3blitz ls s3://my-bucket/logs/ --format s3-batch-csv > manifest.csv',
    ]) + '\nPlain output escapes control characters as \\xNN; use --json for exact keys.\n')
    .action(runAction(async ({ args: [source], opts, signal }) => {
      if (opts.delimiter !== undefined || opts.recursive === false) return listLevel(source, opts, signal);
      const batchCsv = batchCsvFormat(opts);
      const { example, libOpts: asked } = prepare('ls', source, opts, signal, opts.unordered ? { unordered: true } : {});
      if (example) return writeOut(example);
      if (opts.dryrun) return estimate(asked, opts);
      // Versions print long: a key alone would repeat without saying which version it is.
      const long = opts.humanReadable && !opts.allVersions ? itemLongHuman : itemLong;
      const fmt = batchCsv ? null : formatOf(opts) === 'json' ? itemJson : opts.long || opts.allVersions ? long : null;
      // A shard lists its own range of the source (stages/shards.js).
      const shard = await resolveShard(asked);
      if (shard && !opts.quiet) writeErr(`s3blitz: shard ${shard.index} of ${shard.of} (from ${shard.via}): ${shardText(shard)}\n`);
      const libOpts = shard ? shardOptions(asked, shard) : { ...asked, result: undefined };
      const listing = new lib.Listing(libOpts);
      try {
        const rows = batchCsv ? batchRows(listing, { versions: Boolean(opts.allVersions) }) : null;
        for await (const chunk of listing.chunks()) {
          if (rows) { await writeOut(rows(chunk)); continue; }
          if (!fmt) { await writeOut(chunkLines(chunk)); continue; }
          let text = '';
          for (const it of chunk.toItems()) text += fmt(it) + '\n';
          await writeOut(text);
        }
      } finally { listing.close(); }
      const res = { source: listing.location.text, objects: listing.listed, stats: listing.stats.toJSON(), complete: listing.complete, noMatch: listing.noMatch && listing.noMatchText };
      if (listing.heads) res.metadataScan = listing.scanReport();
      if (shard) res.shard = shardInfo(shard);
      if (asked.result !== undefined) await writeResult(asked.result, 'ls', res, asked, shard);
      return Math.max(finish(opts, res), scanDone(res.metadataScan, opts));
    }));

  outputOptions(connectionOptions(program.command('list-buckets')))
    .description('list the buckets the credentials can see')
    .addHelpText('after', examples(['s3blitz list-buckets', 's3blitz list-buckets --endpoint-url http://127.0.0.1:9000 --json']))
    .action(runAction(async ({ opts }) => {
      const libOpts = libraryOptions(undefined, opts);
      if (opts.apiExample) return writeOut(apiExample('listBuckets', libOpts));
      const buckets = await lib.listBuckets(libOpts);
      await writeOut(report.buckets(buckets)[formatOf(opts)]());
      return 0;
    }));

  reportOptions(common(program.command('summarize').alias('summary')))
    .description('count objects and bytes: sizes, ages, storage classes and their cost, folders, extensions, the largest and oldest objects, troublesome keys, incomplete uploads')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder', '.')
    .option('--summarize-folders', 'group by folder')
    .option('--depth <n>', help('depth'))
    .option('--top <n>', help('top'))
    .option('--largest <n>', help('largest'))
    .option('--prices <file>', 'a JSON price table for the storage cost estimate (default: S3 list prices for us-east-1, see docs/commands.md)')
    .option('--no-incomplete-uploads', 'do not list incomplete multipart uploads')
    .option('--by <what>', 'also group by content-type, metadata:NAME or tag:NAME (a HeadObject per object; tag: also GetObjectTagging)')
    .option('--dryrun', 'with --metadata, --tags or --by: print the requests and price of the scan, from the listing alone')
    .addHelpText('after', examples([
      's3blitz summarize .',
      's3blitz summarize s3://my-bucket --summarize-folders --depth 2',
      's3blitz summarize s3://my-bucket/logs/ --json > summary.json',
      's3blitz summarize s3://my-bucket --output report.html      # one self-contained page to share',
      's3blitz summarize s3://my-bucket --format markdown --depth 2 --largest 10',
      's3blitz summarize s3://my-bucket --all-versions',
      's3blitz summarize s3://my-bucket --by content-type',
      's3blitz summarize s3://my-bucket --by tag:team --dryrun',
    ]))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const fmt = formatOf(opts);
      checkOutput(opts.output);
      const extra = { summarizeFolders: Boolean(opts.summarizeFolders) };
      for (const k of ['depth', 'top', 'largest', 'prices', 'by']) if (opts[k] !== undefined) extra[k] = opts[k];
      if (opts.incompleteUploads === false) extra.incompleteUploads = false;
      const { example, libOpts } = prepare('summarize', source, opts, signal, extra);
      if (example) return writeOut(example);
      if (opts.dryrun) return estimate(libOpts, opts);
      const res = await lib.summarize(libOpts);
      await writeReport(opts, lib.report(res, { format: fmt, command: commandLine(), human: opts.humanReadable }));
      return Math.max(finish(opts, res), res.metadataScan && res.metadataScan.failed ? 1 : 0);
    }));

  common(program.command('each'))
    .description('call a js: function for every item (--map) or every page of up to 1000 (--map-list)')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder')
    .option('--map <js>', 'js:(item) => ... called once per item')
    .option('--map-list <js>', 'js:(items) => ... called once per page')
    .addHelpText('after', examples([
      `s3blitz each s3://my-bucket --map 'js:({Key, Size}) => console.log(Key, Size)'`,
      `s3blitz each s3://my-bucket --map-list 'js:(items) => console.log(items.length)'`,
    ]))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const { example, libOpts } = prepare('each', source, opts, signal, { map: opts.map, mapList: opts.mapList });
      if (example) return writeOut(example);
      const res = await lib.each(libOpts);
      return Math.max(finish(opts, res), scanDone(res.metadataScan, opts));
    }));

  common(program.command('map'))
    .description('turn each item into a value, fold the values with --reduce, print the result as JSON')
    .argument('[source]', 's3://bucket/prefix, an https S3 URL, or a local folder')
    .option('--map <js>', 'js:(item) => value')
    .option('--reduce <js>', 'js:(a, b) => value (called in no guaranteed order)')
    .option('--finally <js>', 'js:(result) => final result')
    .option('--default <json>', 'result for an empty range (JSON)')
    .addHelpText('after', examples([
      `s3blitz map s3://my-bucket --map 'js:({Size}) => Size' --reduce 'js:(a, b) => a + b' --default 0`,
      `s3blitz map s3://my-bucket --map 'js:({Key}) => Key.split("/")[0]' --reduce 'js:(a, b) => a.includes(b) ? a : [].concat(a, b)'`,
      `s3blitz map . --map 'js:({Key, Size}) => ({Key, Size})'   # no --reduce: one JSON value per line`,
    ]))
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const extra = { map: opts.map, reduce: opts.reduce, finally: opts.finally };
      if (opts.default !== undefined) {
        try { extra.default = JSON.parse(opts.default); } catch { extra.default = opts.default; }
      }
      if (!opts.reduce && !opts.apiExample) extra.onValue = (v) => writeOut(JSON.stringify(v === undefined ? null : v) + '\n');
      const { example, libOpts } = prepare('map', source, opts, signal, extra);
      if (example) return writeOut(example);
      const res = await lib.map(libOpts);
      if (opts.reduce) await writeOut(JSON.stringify(res.result === undefined ? null : res.result) + '\n');
      return Math.max(finish(opts, res), scanDone(res.metadataScan, opts));
    }));
}

module.exports = { register, finish, notice, prepare };
