'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against minio.
require('../helpers/compat-suite').compatSuite('minio');
