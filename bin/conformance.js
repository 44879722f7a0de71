#!/usr/bin/env node
// Compiled JavaScript only on the run path: no TypeScript loader, so start-up stays fast.
import { existsSync } from 'node:fs';

const MAIN = new URL('../dist/cli/main.js', import.meta.url);

let cli;
try {
  cli = await import(MAIN.href);
} catch (err) {
  // The package always carries dist/; a clone has it once built (npm install builds it when it installs the
  // dependencies, the "dependencies" script). Without it, one line that says what to do instead of a stack.
  if (existsSync(MAIN)) throw err;
  process.stderr.write(
    'conformance: the compiled CLI (dist/) is missing: in a clone of the repository, run `npm run build`\n',
  );
  process.exit(2);
}
// A reader that stops early (`conformance run | head`) closes the pipe. The run goes on to its end all the same, quietly:
// it may have changed the server (a webhook, a customer) and puts that back, and the file reports are still written;
// its exit code stays the run's. Dying of SIGPIPE midway would skip both.
// The same for stderr: a caller that closed it (a test harness that gave up waiting and killed the run, `2>&1 | head`)
// must not turn the run's next line into a crash, exit 4 with nothing said, in place of the run's own exit code.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
cli.main(process.argv);
