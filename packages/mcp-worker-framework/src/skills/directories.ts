/**
 * Every directory of the built skills, worked out once at load (skills.mdx, Directory Resources):
 * each skill's root (`skill://<path>`, no trailing slash) and each folder in it, with its direct
 * children, files by their type and folders as `inode/directory`, split into pages.
 */
import type { BuiltSkill, SkillRules } from './built.js';

/** A directory resource's MIME type (skills.mdx, Directory Resources). */
const DIRECTORY_MIME_TYPE = 'inode/directory';

interface Child {
  uri: string;
  name: string;
  mimeType: string;
}

export interface Directory {
  /** The skill's: a directory is seen by whoever sees its skill. */
  readonly rules: SkillRules;
  /** Each page by the cursor that asks for it (the first: `undefined`). */
  readonly pages: ReadonlyMap<string | undefined, { resources: Child[]; nextCursor?: string }>;
}

export function directoriesOf(skills: readonly BuiltSkill[], pageSize: number): Map<string, Directory> {
  const directories = new Map<string, Directory>();
  for (const skill of skills) {
    const root = `skill://${skill.path}`;
    const children = new Map<string, Map<string, Child>>([[root, new Map()]]);
    for (const file of skill.files) {
      const segments = file.path.split('/');
      let parent = root;
      segments.forEach((name, i) => {
        const uri = `${parent}/${name}`;
        const isFile = i === segments.length - 1;
        children.get(parent)!.set(uri, { uri, name, mimeType: isFile ? file.mimeType : DIRECTORY_MIME_TYPE });
        if (!isFile && !children.has(uri)) children.set(uri, new Map());
        parent = uri;
      });
    }
    for (const [uri, listed] of children)
      directories.set(uri, { rules: skill.rules ?? {}, pages: pagesOf(uri, [...listed.values()], pageSize) });
  }
  return directories;
}

function pagesOf(uri: string, children: readonly Child[], pageSize: number): Directory['pages'] {
  const pages = new Map<string | undefined, { resources: Child[]; nextCursor?: string }>();
  let cursor: string | undefined;
  for (let offset = 0; offset === 0 || offset < children.length; offset += pageSize) {
    const next = offset + pageSize < children.length ? btoa(`${uri}:${offset + pageSize}`) : undefined;
    pages.set(cursor, { resources: children.slice(offset, offset + pageSize), ...(next ? { nextCursor: next } : {}) });
    cursor = next;
  }
  return pages;
}
