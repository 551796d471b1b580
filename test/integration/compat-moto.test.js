'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against moto. Its multipart uploads
// store a CRC32 of the whole object labelled as the algorithm asked for (right for CRC32,
// wrong for CRC64NVME and CRC32C), and composite SHA-256 values without their "-N".
require('../helpers/compat-suite').compatSuite('moto', { wrongChecksums: ['CRC64NVME', 'CRC32C'] });
