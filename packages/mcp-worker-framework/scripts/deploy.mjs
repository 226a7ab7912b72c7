/**
 * `npm run deploy`: `wrangler deploy` (its arguments passed on: `npm run deploy -- --env staging`),
 * its output shown as it comes, then the MCP endpoint it deployed and the next steps
 * (scripts/deploy/nextSteps.mjs). Exits with wrangler's status; the next steps only on success.
 * The Deploy to Cloudflare button's build runs this same script (README, "Deploy").
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { endpointsOf, nextSteps } from './deploy/nextSteps.mjs';

const require = createRequire(import.meta.url);
const wrangler = join(dirname(require.resolve('wrangler/package.json')), 'bin', 'wrangler.js');

const child = spawn(process.execPath, [wrangler, 'deploy', ...process.argv.slice(2)], {
  stdio: ['inherit', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (chunk) => ((output += chunk), process.stdout.write(chunk)));
child.stderr.on('data', (chunk) => process.stderr.write(chunk));
child.on('exit', (code, signal) => {
  // A dry run deploys nothing: there is no endpoint to name.
  if (code === 0 && !process.argv.includes('--dry-run')) console.log(nextSteps(endpointsOf(output)));
  process.exit(code ?? (signal ? 1 : 0));
});
