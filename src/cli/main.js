'use strict';
const { Command, CommanderError } = require('commander');
const { register } = require('./commands');
const { registerCopy, registerMove } = require('./copy-command');
const { registerCompare } = require('./compare-commands');
const { registerObjects } = require('./object-commands');
const { registerShards } = require('./shard-commands');
const { registerManifest } = require('./manifest-command');
const { EXIT } = require('../errors');
const pkg = require('../../package.json');

function buildProgram() {
  const program = new Command('s3blitz');
  program
    .description('List, summarize, compare, copy and sync very large S3 buckets, massively in parallel')
    .version(pkg.version)
    .showSuggestionAfterError()
    .exitOverride()
    // One line, the suggestion ("(Did you mean --version?)") on it too.
    .configureOutput({ outputError: (str, write) => write(`s3blitz: ${str.replace(/^error: /, '').trim().replace(/\s*\n\s*\(Did you mean/g, ' (did you mean').replace(/\s*\n\s*/g, ' ')}\n`) })
    .addHelpText('after', `
Sources and targets: s3://bucket/key, s3://bucket/folder/, s3://bucket/logs/*/01/*
(wildcards), https://bucket.s3.REGION.amazonaws.com/prefix, or a local file or folder;
cp, sync, compare and rm read paths as aws-cli does (see the path table in docs/commands.md).
Credentials come from the standard AWS chain (environment, shared config and
credentials files with --profile, SSO, container and instance metadata); a profile's
endpoint_url is used. -H is --human-readable; -h is help.

Exit codes: 0 success, 1 differences or failed objects, 2 usage error, 3 fatal error,
4 refused for safety, 130/143 interrupted.

Examples:
  $ s3blitz summarize .
  $ s3blitz ls s3://my-bucket/logs/ --long
  $ s3blitz summarize s3://my-bucket --summarize-folders --json
  $ s3blitz cp s3://my-bucket/report.csv ./report.csv
  $ s3blitz rm 's3://my-bucket/tmp/*' --max-delete 1000
  $ echo hello | s3blitz cp - s3://my-bucket/hello.txt`);
  register(program);
  registerCopy(program);
  registerMove(program);
  registerCompare(program);
  registerObjects(program);
  registerShards(program);
  registerManifest(program);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput(program.configureOutput());
  return program;
}

// Flags with an optional value (--checksum [how]) take the next word only where it is one of
// their values: `--checksum s3://a s3://b` must not read s3://a as how.
const OPTIONAL_VALUES = { '--checksum': ['stored', 'download'] };
function optionalValues(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return out.concat(argv.slice(i));
    const values = OPTIONAL_VALUES[a];
    out.push(values && !values.includes(argv[i + 1]) ? `${a}=${values[0]}` : a);
  }
  return out;
}

async function main(argv = process.argv) {
  // A closed pipe (s3blitz ls | head) ends the run quietly.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode || 0);
    throw err;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(optionalValues(argv));
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT.USAGE;
      return;
    }
    throw err;
  }
}

module.exports = { main, buildProgram, optionalValues };
