// Preloaded into a benchmarked child (node --import): its peak resident memory, read by the process itself at exit,
// goes to the file BENCH_PEAK_RSS_FILE names, so the parent gets the child's figure and not its own.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
