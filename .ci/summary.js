/**
 * The closing count of .ci/run, from the runners' machine-readable results. Reads a manifest (one run per line,
 * tab-separated: kind, name, exit status, result files as a comma list, skip pattern) and prints one line per run, then, last, one
 * plain line "N passed, M failed" summed over every run. Exits 1 when anything failed.
 *
 * - jest (--json --outputFile): failed tests, suites that failed to run, and every skipped or todo test whose full
 *   name does not match the run's skip pattern (the engine suites a leg has no engine for) count as failed; the
 *   skips that match are listed by name, so none goes unseen.
 * - schemathesis (JUnit XML): each test case passes or fails.
 * A missing result file counts one failure, and so does a runner that exited non-zero without a failure in its results.
 */
const { existsSync, readFileSync } = require('node:fs');

function jest(file, skipPattern, out) {
  const results = JSON.parse(readFileSync(file, 'utf8'));
  let passed = 0;
  let failed = results.numRuntimeErrorTestSuites;
  for (const suite of results.testResults) {
    if (suite.testExecError || (suite.status === 'failed' && suite.assertionResults.length === 0)) {
      out.push(`  suite failed to run: ${suite.name}`);
    }
    for (const test of suite.assertionResults) {
      if (test.status === 'passed') passed++;
      else if (test.status === 'failed') failed++;
      else if (skipPattern && new RegExp(skipPattern).test(test.fullName)) out.push(`  not run here: ${test.fullName}`);
      else {
        failed++;
        out.push(`  skipped, counted as failed: ${test.fullName}`);
      }
    }
  }
  return { passed, failed };
}

function junit(file) {
  const xml = readFileSync(file, 'utf8');
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  const failed = cases.filter((c) => /<(failure|error)\b/.test(c)).length;
  return { passed: cases.length - failed, failed };
}

const manifest = readFileSync(process.argv[2], 'utf8').split('\n').filter((line) => line.trim() !== '');
let passed = 0;
let failed = 0;
for (const line of manifest) {
  const [kind, name, status, files, skipPattern] = line.split('\t');
  const out = [];
  const counts = { passed: 0, failed: 0 };
  for (const file of files.split(',')) {
    if (!existsSync(file)) {
      counts.failed++;
      out.push(`  no results in ${file}: counted as one failure`);
      continue;
    }
    const one = kind === 'jest' ? jest(file, skipPattern, out) : junit(file);
    counts.passed += one.passed;
    counts.failed += one.failed;
  }
  if (Number(status) !== 0 && counts.failed === 0) {
    counts.failed = 1;
    out.push(`  ${kind} exited ${status} without a failure in its results: counted as one failure`);
  }
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed`);
  for (const detail of out) console.log(detail);
  passed += counts.passed;
  failed += counts.failed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
