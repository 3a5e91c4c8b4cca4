// Collects every test file as a machine with Node and npm only would (no PostgreSQL, no Redis, no Chromium, not
// CI) and fails when a file registers no test there: Vitest fails such a file ("No test suite found"), so a suite
// built over a list filtered to the services present (describe.each([])) turns `npm test` red on a newcomer's
// machine while CI, which has every service, stays green. Collecting runs each file's top level and its describe
// blocks, never a test or a hook, so it costs a fraction of a run (.ci/run runs it every time).
import { createVitest } from 'vitest/node';

for (const name of ['TEST_DATABASE_URL', 'TEST_REDIS_URL', 'CI']) delete process.env[name];
// A path that is not there, whatever this machine has: the browser files must register their suites without it.
process.env.CHROMIUM_PATH = '/nonexistent/manaboard-check-suites/chromium';

// Arguments as vitest's: file filters, and `--project <name>` (repeatable) to check some projects only.
const args = process.argv.slice(2);
const projects = args.flatMap((arg, i) => (args[i - 1] === '--project' ? [arg] : []));
const filters = args.filter((arg, i) => arg !== '--project' && args[i - 1] !== '--project');
console.log('check-suites: collecting every test file as on a machine without PostgreSQL, Redis or Chromium');
const vitest = await createVitest('test', {
  watch: false,
  ...(projects.length > 0 ? { project: projects } : {}),
  reporters: [],
  // Collection only imports the files: sharing the modules between the files of a worker keeps it cheap.
  isolate: false,
});
const problems = [];
try {
  const { testModules, unhandledErrors } = await vitest.collect(filters, { staticParse: false });
  if (unhandledErrors.length > 0) {
    for (const error of unhandledErrors) console.error(error);
    problems.push('unhandled errors while collecting (above)');
  }
  for (const mod of testModules) {
    const name = `[${mod.project.name}] ${mod.relativeModuleId}`;
    const errors = mod.errors();
    if (errors.length > 0) {
      problems.push(`${name}: ${errors.map((error) => error.message.split('\n')[0]).join('; ')}`);
    } else if ([...mod.children.allTests()].length === 0) {
      problems.push(`${name}: registers no test without PostgreSQL, Redis and Chromium`);
    }
  }
  if (problems.length === 0) {
    console.log(`check-suites: all ${testModules.length} test files register their tests without services`);
  }
} finally {
  await vitest.close();
}
if (problems.length > 0) {
  console.error(
    `check-suites: ${problems.length} test file(s) register nothing on a machine without services`,
  );
  console.error('(use describe.skipIf / describe.runIf, never describe.each over a filtered list):');
  for (const problem of problems) console.error(`  ${problem}`);
  process.exitCode = 1;
}
