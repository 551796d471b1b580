#!/usr/bin/env node
'use strict';
// V8 lets the heap grow to several times the live data when allocation is as fast as
// here (hundreds of requests at once); a smaller growth step keeps peak RSS near the live
// data for a few percent more CPU. S3BLITZ_HEAP_GROWTH=0 restores V8's own policy.
const growth = process.env.S3BLITZ_HEAP_GROWTH === undefined ? 50 : Number(process.env.S3BLITZ_HEAP_GROWTH);
if (growth > 0) require('v8').setFlagsFromString(`--heap-growing-percent=${Math.floor(growth)}`);
// Downloads create files on libuv's thread pool, where creating one can take half a
// millisecond of kernel time: more threads than libuv's 4 keep requests moving meanwhile.
// Read once, when the pool first starts, so it is set before anything uses it.
if (process.env.UV_THREADPOOL_SIZE === undefined) process.env.UV_THREADPOOL_SIZE = '16';
require('../src/cli/main').main(process.argv).catch((err) => {
  process.stderr.write(`s3blitz: internal error: ${err && err.message}\n`);
  process.exitCode = 3;
});
