'use strict';
const { Command, CommanderError } = require('commander');
const { register } = require('./commands');
const { registerCopy } = require('./copy-command');
const { registerCompare } = require('./compare-commands');
const { registerRmVersions } = require('./rm-versions-command');
const { EXIT } = require('../errors');
const pkg = require('../../package.json');

function buildProgram() {
  const program = new Command('s3blitz');
  program
    .description('List, summarize, compare, copy and sync very large S3 buckets, massively in parallel')
    .version(pkg.version)
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: (str, write) => write(`s3blitz: ${str.replace(/^error: /, '').trim()}\n`) })
    .addHelpText('after', `
Sources and targets: s3://bucket/prefix, https://bucket.s3.REGION.amazonaws.com/prefix,
https://s3.REGION.amazonaws.com/bucket/prefix, or a local folder. Credentials come
from the standard AWS chain (environment, shared config and credentials files with
--profile, SSO, container and instance metadata).

Exit codes: 0 success, 1 differences or failed objects, 2 usage error, 3 fatal error,
4 refused for safety, 130/143 interrupted.

Examples:
  $ s3blitz summarize .
  $ s3blitz ls s3://my-bucket/logs/ --long
  $ s3blitz summarize s3://my-bucket --summarize-folders --json`);
  register(program);
  registerCopy(program);
  registerCompare(program);
  registerRmVersions(program);
  for (const cmd of program.commands) cmd.exitOverride().configureOutput(program.configureOutput());
  return program;
}

async function main(argv = process.argv) {
  // A closed pipe (s3blitz ls | head) ends the run quietly.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode || 0);
    throw err;
  });
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : EXIT.USAGE;
      return;
    }
    throw err;
  }
}

module.exports = { main, buildProgram };
