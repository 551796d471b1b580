'use strict';
// plan and merge: the two ends of a job split into shards (stages/shards.js, merge.js).
const fs = require('fs');
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions, libraryOptions, reportOptions } = require('./options');
const { writeReport, commandLine } = require('./report-output');
const { runAction, writeOut, writeErr, apiExample, formatOf } = require('./run');
const report = require('../report');
const { parseOption } = require('../options');

const examples = (lines) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

function registerShards(program) {
  outputOptions(sourceOptions(connectionOptions(program.command('plan'))), { json: false })
    .description('cut a source into --shards N key ranges of about equal object counts, for N processes to take one each (--shard I/N --plan FILE)')
    .argument('[source]', 's3://bucket/prefix, or a local folder')
    .option('--plan-budget <n>', 'list requests the plan may spend (default: 664 up to 100 shards, 6 more a shard beyond, at most 1000)')
    .option('-o, --output <file>', 'write the plan there (default: stdout)')
    .addHelpText('after', examples([
      's3blitz plan s3://my-bucket --shards 50 --output plan.json',
      's3blitz sync s3://my-bucket s3://backup --plan plan.json --shard 7/50 --result s3://results/sync-%i.json',
    ]) + '\nA plan is JSON: {source, shards, requests, estimatedObjects, ranges: [{index, startAfter, stopAt, estimatedObjects}]};\neach range is (startAfter, stopAt], null at the source\'s ends.\n')
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const libOpts = { ...libraryOptions(source, opts), shards: opts.shards };
      for (const k of ['shard', 'plan', 'result']) delete libOpts[k];
      if (opts.planBudget !== undefined) libOpts.planBudget = parseOption('planBudget', opts.planBudget);
      if (opts.apiExample) return writeOut(apiExample('plan', libOpts));
      libOpts.signal = signal;
      const p = await lib.plan(libOpts);
      const text = JSON.stringify(p, null, 2) + '\n';
      if (opts.output) {
        fs.writeFileSync(`${opts.output}.tmp`, text);
        fs.renameSync(`${opts.output}.tmp`, opts.output);
      } else await writeOut(text);
      if (!opts.quiet) {
        writeErr(`s3blitz: ${p.shards} shards of ${p.source} from ${p.requests} list requests: about ${p.estimatedObjects.toLocaleString('en-US')} objects${p.exact ? ' (counted exactly)' : ''}${opts.output ? `, written to ${opts.output}` : ''}\n`);
      }
      return 0;
    }));

  reportOptions(outputOptions(connectionOptions(program.command('merge'))))
    .description('combine the results of a job\'s shards (--result) into the one report a single process would give')
    .argument('<results...>', 'result files, or an s3:// prefix holding them')
    .option('--max-delete <n>', 'refuse (exit 4) when the shards deleted (or, dry runs, would delete) more than n objects in all')
    .addHelpText('after', examples([
      's3blitz merge results/sync-*.json',
      's3blitz merge s3://my-results/job-42/ --json',
      's3blitz merge results/sync-*.json --max-delete 1000   # after a --dryrun per shard',
    ]) + '\nExits 3 when a shard is missing or the shards\' ranges do not meet end to end.\n')
    .action(runAction(async ({ args: [paths], opts }) => {
      const conn = libraryOptions(undefined, opts);
      const options = { ...conn };
      if (opts.maxDelete !== undefined) options.maxDelete = parseOption('maxDelete', opts.maxDelete); // merge reads no source: not a checked command
      const m = await lib.merge(paths, options);
      if (!opts.quiet) writeErr(`s3blitz: merged ${m.shards.present} of ${m.shards.of} shards of ${m.command} ${m.source}${m.target ? ` to ${m.target}` : ''}\n`);
      const fmt = formatOf(opts);
      if (m.command === 'summarize' || m.command === 'compare') await writeReport(opts, lib.report(m, { format: fmt, command: commandLine(), human: opts.humanReadable }));
      else if (m.command === 'copy' || m.command === 'sync') await writeOut(fmt === 'json' ? report.copy(m).json() : report.copy(m).text());
      else await writeOut(JSON.stringify(m, null, 2) + '\n');
      if (m.command === 'compare') return m.identical ? 0 : 1;
      return m.ok === false || (m.failed && m.failed.objects) ? 1 : 0;
    }));
}

module.exports = { registerShards };
