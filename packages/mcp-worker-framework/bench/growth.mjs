/**
 * Growth under workerd: the template (default settings) with 10, 100 and 1,000 tools, built with
 * the tool count set at build time (contenders/growth.ts): tools/list (first page of 50) and
 * tools/call of the last tool, in interleaved rounds as in load.mjs, and the cold start of each.
 */
import { bundleOf, GROWTH, gzipBytes } from './build.mjs';
import { coldStarts } from './coldstart.mjs';
import { checkAnswers, median, rounds, serveAll, stopAll } from './load.mjs';
import { OPS } from './requests.mjs';
import { fixed, table } from './stats.mjs';

const OPS_GROWN = ['tools/list', 'tools/call'];
// tools/list's first page shows the first 50 tools (not echo); echo is the last tool, called by name
const expectation = (_name, op) => (op === 'tools/list' ? { status: 200, contains: '"tools":[' } : OPS[op].expect);

export async function growthUnderWorkerd({ rounds: count = 3, seconds = 3, connections = 32, runs = 5 } = {}) {
  const served = Object.fromEntries(GROWTH.map((n) => [String(n), { bundle: `growth-${n}` }]));
  const servers = await serveAll(served);
  let result;
  try {
    await checkAnswers(servers, OPS_GROWN, expectation);
    result = await rounds(servers, OPS_GROWN, { rounds: count, seconds, connections, expectation });
  } finally {
    await stopAll(servers);
  }
  const starts = await coldStarts(servers, { runs });
  const { samples, loads } = result;
  const rps = (n, op) => fixed(median(samples[`${n} ${op}`].rps), 0);
  const perCpu = (n, op) =>
    fixed(median(samples[`${n} ${op}`].rps.map((r, i) => r / samples[`${n} ${op}`].serverCpu[i])), 0);
  return {
    loads,
    table: table(
      [
        'tools registered',
        'tools/list req/s',
        'tools/call req/s',
        'tools/list req/CPU-s',
        'tools/call req/CPU-s',
        'cold start ms',
        'workerd CPU ms until then',
        'bundle gzip bytes',
        'errors',
      ],
      GROWTH.map((n) => [
        String(n),
        rps(n, 'tools/list'),
        rps(n, 'tools/call'),
        perCpu(n, 'tools/list'),
        perCpu(n, 'tools/call'),
        fixed(starts[String(n)].wall, 0),
        fixed(starts[String(n)].cpu, 0),
        String(gzipBytes(bundleOf(`growth-${n}`))),
        String(OPS_GROWN.reduce((sum, op) => sum + samples[`${n} ${op}`].errors, 0)),
      ]),
    ),
  };
}
