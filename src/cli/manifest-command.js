'use strict';
// manifest: an S3 Batch Operations manifest of the selected objects, and the ETag the job needs.
const lib = require('../index');
const { connectionOptions, sourceOptions, outputOptions } = require('./options');
const { runAction, writeOut } = require('./run');
const { prepare, finish } = require('./commands');

const shellQuote = (s) => `'${s.replace(/'/g, "'\\''")}'`;
const count = (n) => n.toLocaleString('en-US');

function manifestText(res) {
  const what = res.deleteMarkers === undefined ? 'objects' : `object versions (${count(res.deleteMarkers)} delete markers left out)`;
  const lines = [`${res.output}: ${count(res.objects)} ${what} of s3://${res.bucket}, ${count(res.bytes)} bytes`];
  if (res.etagSource === 's3') {
    lines.push(`ETag: ${res.etag} (as S3 answered the upload)`);
    lines.push('For aws s3control create-job:');
    lines.push(`  --manifest ${shellQuote(JSON.stringify({ Spec: res.spec, Location: res.location }))}`);
  } else {
    lines.push(`ETag: ${res.etag} (the file's MD5: the ETag S3 gives it when it is uploaded in one PutObject; ` +
      'an upload in parts, such as aws s3 cp of a file over 8 MiB, gets another: use the ETag S3 answers then)');
    lines.push(`Spec for aws s3control create-job: ${JSON.stringify(res.spec)}`);
  }
  return lines.join('\n') + '\n';
}

function registerManifest(program) {
  const examples = (lines) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;
  outputOptions(sourceOptions(connectionOptions(program.command('manifest'))))
    .description('write an S3 Batch Operations manifest (CSV of bucket,key, keys URL-encoded) of the selected objects and print the ETag the job needs')
    .argument('[source]', 's3://bucket/prefix or an https S3 URL')
    .option('-o, --output <file|s3://bucket/key>', 'where the manifest goes: a local file, or an S3 object (its ETag is the one S3 answers)')
    .option('--part-size <size>', 'an S3 manifest longer than this goes up in parts of this size (default: 8MiB)')
    .option('--all-versions', 'a row for every version of every key, with its version id as a third column (delete markers are left out)')
    .addHelpText('after', examples([
      's3blitz manifest s3://my-bucket/logs/ --output s3://my-manifests/logs.csv',
      "s3blitz manifest s3://my-bucket --filter 'js:({Size}) => Size > 1e9' --output big.csv",
      's3blitz manifest s3://my-bucket --exclude "*" --include "*.parquet" --output s3://my-manifests/parquet.csv --json',
      "s3blitz manifest s3://my-bucket --all-versions --filter 'js:({IsLatest}) => !IsLatest' --output s3://my-manifests/old-versions.csv",
      's3blitz ls s3://my-bucket/logs/ --format s3-batch-csv > logs.csv   # the same rows on stdout',
    ]) + '\nThe CSV has no header; pass the printed --manifest (Spec and Location) to aws s3control create-job.\n')
    .action(runAction(async ({ args: [source], opts, signal }) => {
      const { example, libOpts } = prepare('manifest', source, opts, signal, { output: opts.output, ...(opts.partSize ? { partSize: opts.partSize } : {}), ...(opts.allVersions ? { allVersions: true } : {}) });
      if (example) return writeOut(example);
      const res = await lib.manifest(libOpts);
      await writeOut(opts.json ? JSON.stringify(res, null, 2) + '\n' : manifestText(res));
      return finish(opts, res);
    }));
}

module.exports = { registerManifest };
