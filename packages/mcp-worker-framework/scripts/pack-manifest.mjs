/**
 * The manifest npm packs carries no scripts: `prepack` (`strip`) sets them aside, `postpack`
 * (`restore`) puts them back. They are this repository's (the workspace copy's `prepare` build,
 * the suite, the bench) and name files the tarball does not hold; and npm 11 lists a `prepare`
 * of a package installed from a tarball or git among the install scripts a fork must approve
 * (`allowScripts`), which a fork on the packed package should never be asked to.
 *
 *   node scripts/pack-manifest.mjs strip | restore
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = new URL('../package.json', import.meta.url);
const ASIDE = new URL('../package.json.packing', import.meta.url);

const restore = () => existsSync(ASIDE) && renameSync(ASIDE, MANIFEST);

if (process.argv[2] === 'strip') {
  restore(); // a pack that died before its postpack left the manifest stripped: start from the real one
  const text = readFileSync(MANIFEST, 'utf8');
  writeFileSync(ASIDE, text);
  const { scripts: _scripts, ...packed } = JSON.parse(text);
  writeFileSync(MANIFEST, `${JSON.stringify(packed, null, 2)}\n`);
} else if (process.argv[2] === 'restore') restore();
else {
  console.error('usage: node scripts/pack-manifest.mjs strip | restore');
  process.exit(2);
}
