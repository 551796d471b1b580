#!/usr/bin/env node
'use strict';
require('../src/cli/main').main(process.argv).catch((err) => {
  process.stderr.write(`s3blitz: internal error: ${err && err.message}\n`);
  process.exitCode = 3;
});
