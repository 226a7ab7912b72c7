/**
 * The Skills extension (`io.modelcontextprotocol/skills`, skills.mdx) through the one seam of
 * extensions (`../mcp/extension.ts`), for the skills `scripts/build-skills.mjs` built. Everything
 * is worked out once, at module load, from the built manifest: each skill's entry, the
 * `SKILL.md` listed in `resources/list`, every file read through `resources/read`, every
 * directory's children. A request is a lookup; a file read is one fetch from the static assets.
 */
import {
  type CachePolicy,
  type Extension,
  invalidParams,
  isRestricted,
  list,
  type McpRequest,
  type Method,
  privately,
  refusalFor,
  type ServerAtLoad,
} from '../mcp/internal.js';
import { SKILLS_EXTENSION, type BuiltSkill, type SkillRules } from './built.js';
import { directoriesOf, type Directory } from './directories.js';
import { skillFile } from './skillFile.js';

/** A skill as served: its entry (skills.mdx, Skill Entries) and who may see it. */
interface Served {
  readonly entry: {
    uri: string;
    frontmatter: BuiltSkill['frontmatter'];
    resources: { uri: string; digest: string; size: number }[];
  };
  readonly rules: SkillRules;
}

/** The extension for the built skills, or none when there are none: a server without skills declares nothing. */
export function servedSkills(built: readonly BuiltSkill[]): readonly Extension[] {
  if (built.length === 0) return [];
  const served = built.map((skill): Served => {
    const root = `skill://${skill.path}`;
    const resources = skill.files.map(({ path, digest, size }) => ({ uri: `${root}/${path}`, digest, size }));
    return { entry: { uri: `${root}/SKILL.md`, frontmatter: skill.frontmatter, resources }, rules: skill.rules ?? {} };
  });
  const files = built.flatMap((skill) => skill.files.map((file) => skillFile(skill, file)));
  const entries = new Set(served.map((skill) => skill.entry.uri));
  const listed = files.filter((file) => entries.has(file.uri));
  return [
    {
      id: SKILLS_EXTENSION,
      settings: { directoryRead: true },
      // skills.mdx, Resource Metadata: each SKILL.md listed with its frontmatter's name and description.
      resources: listed,
      unlistedResources: files.filter((file) => !entries.has(file.uri)),
      page: {
        title: 'Skills',
        about: 'Workflows a client that speaks the Skills extension can load for its model.',
        items: listed,
      },
      install: (compiled) => ({
        methods: {
          'skills/list': list(
            compiled,
            'resources/list',
            'skills',
            served.map(({ entry, rules }) => ({ rules, listed: entry })),
            'skills/list',
          ),
          'skills/get': getSkill(compiled, served),
          'resources/directory/read': readDirectory(compiled, directoriesOf(built, compiled.pageSize)),
        },
        // SEP-2640 declares the extension in `initialize` too; its results there carry no caching hints.
        legacyMethods: ['skills/list', 'skills/get', 'resources/directory/read'],
      }),
    },
  ];
}

/**
 * Caching hints of one skill's answers: those of `resources/read` (skills.mdx: `skills/get` carries
 * them "as `resources/read` does"), private when who asks decides whether it is seen.
 */
function policies(compiled: ServerAtLoad, rules: SkillRules) {
  const of = (authenticated: boolean): CachePolicy => {
    const policy = compiled.cache('resources/read', authenticated);
    return isRestricted(rules) ? privately(policy) : policy;
  };
  const [anonymous, authenticated] = [of(false), of(true)];
  return (request: McpRequest) => (request.caller === undefined ? anonymous : authenticated);
}

/** `skills/get` (skills.mdx, Getting a Skill): -32602 for a URI that is not a skill this caller may see. */
function getSkill(compiled: ServerAtLoad, served: readonly Served[]): Method {
  const skills = new Map(
    served.map((skill) => [skill.entry.uri, { ...skill, policy: policies(compiled, skill.rules) }]),
  );
  return (request) => {
    const uri = request.message.params?.uri;
    if (typeof uri !== 'string') return { error: invalidParams('params.uri must be a string') };
    const skill = skills.get(uri);
    const refused = skill && refusalFor(skill.rules, request.caller, compiled.scopeHierarchy);
    // A skill the caller may not see is answered as one never served.
    if (!skill || refused === 'hidden') return { error: invalidParams(`No skill is served at ${uri}`, { uri }) };
    if (refused) return { error: refused };
    return { result: { skill: skill.entry }, cache: skill.policy(request) };
  };
}

/**
 * `resources/directory/read` (skills.mdx, Reading Directories): the direct children of a skill's
 * root or of a folder in it, a page at a time; -32602 for anything else, a file included. The
 * caching hints are on the result too: the SDK client requires them on 2026-07-28 (notes.md).
 */
function readDirectory(compiled: ServerAtLoad, directories: ReadonlyMap<string, Directory>): Method {
  const known = new Map(
    [...directories].map(([uri, directory]) => [uri, { ...directory, policy: policies(compiled, directory.rules) }]),
  );
  return (request) => {
    const { uri, cursor } = request.message.params ?? {};
    if (typeof uri !== 'string') return { error: invalidParams('params.uri must be a string') };
    if (cursor !== undefined && typeof cursor !== 'string')
      return { error: invalidParams('params.cursor must be a string') };
    const directory = known.get(uri);
    const refused = directory && refusalFor(directory.rules, request.caller, compiled.scopeHierarchy);
    if (!directory || refused === 'hidden')
      return { error: invalidParams(`${uri} is not a directory resource`, { uri }) };
    if (refused) return { error: refused };
    const page = directory.pages.get(cursor);
    if (!page) return { error: invalidParams('unknown cursor', { cursor }) };
    return { result: page, cache: directory.policy(request) };
  };
}
