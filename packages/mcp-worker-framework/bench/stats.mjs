/** Small helpers shared by the benchmark scripts. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** A markdown table from rows of cells. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
export const ratio = (value, base) => `${fixed(value / base, 1)}×`;

export async function machine() {
  const os = await import('node:os');
  return `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${os.loadavg()[0].toFixed(2)}`;
}
