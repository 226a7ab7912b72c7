/**
 * What the builds (`build-skills.mjs`, `build-views.mjs`) read from the tree, and how: plain files
 * and folders only. Their inputs are meant to be shared and copied (`git clone` and `cp -r` keep
 * symbolic links), and what a build reads it publishes to every client: a link to a file outside
 * the folder (a secrets file, `/proc/self/environ` on a CI runner) would publish that file, and a
 * named pipe or a device would hang the build or leak what it streams. So every entry is looked
 * at with `lstat`, never followed, and a file is opened so that a link or a pipe put in its place
 * since is refused too (`O_NOFOLLOW`, `O_NONBLOCK`).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';

/** Where the platform has them (not on Windows, where links are rare and pipes are not files). */
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * `'file'`, `'folder'`, undefined when nothing is there, or what the entry is instead, to name
 * in a refusal: "a symbolic link (to ../../.env)", "a named pipe (FIFO)", "a device", "a socket".
 */
export function inputKind(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  if (stat.isSymbolicLink()) return `a symbolic link (to ${readlinkSync(path)})`;
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a socket';
}

/** The bytes of the regular file at `path`; throws for anything else, a link or a pipe included, without waiting on it. */
export function readInput(path) {
  const fd = openSync(path, constants.O_RDONLY | NO_FOLLOW);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
