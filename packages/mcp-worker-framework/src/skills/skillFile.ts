/**
 * A skill's file as a resource (skills.mdx, Resource Mapping): `skill://<path>/<file>`, read from
 * the Worker's static assets (`/skills/<path>/<file>` under the `ASSETS` binding), where
 * `scripts/build-skills.mjs` put the very bytes it hashed. `SKILL.md` is listed with its
 * frontmatter's name and description; the skill's rules apply to every file.
 */
import { misconfigured, type ResourceDefinition, type WorkerEnv } from '../mcp/internal.js';
import type { BuiltFile, BuiltSkill } from './built.js';

// The bytes as they are: a byte-order mark is part of what the digest covers, never dropped.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function skillFile(skill: BuiltSkill, file: BuiltFile): ResourceDefinition {
  const uri = `skill://${skill.path}/${file.path}`;
  const isSkillMd = file.path === 'SKILL.md';
  const { requiredScopes, visibleTo } = skill.rules ?? {};
  return {
    uri,
    name: isSkillMd ? skill.frontmatter.name : file.path,
    ...(isSkillMd ? { description: skill.frontmatter.description } : {}),
    mimeType: file.mimeType,
    ...(requiredScopes ? { requiredScopes } : {}),
    ...(visibleTo ? { visibleTo } : {}),
    read: async ({ env }) => {
      const bytes = await readAsset(env, `skills/${skill.path}/${file.path}`);
      return {
        contents: [
          file.binary
            ? { uri, mimeType: file.mimeType, blob: base64(bytes) }
            : { uri, mimeType: file.mimeType, text: utf8.decode(bytes) },
        ],
      };
    },
  };
}

async function readAsset(env: WorkerEnv, path: string): Promise<Uint8Array> {
  const assets = (env as { ASSETS?: Fetcher }).ASSETS;
  if (!assets)
    throw misconfigured(
      'ASSETS',
      'is not bound: skills are read from static assets, `[assets] directory = "build"` and `binding = "ASSETS"` in wrangler.toml (docs/skills.md)',
    );
  // Only the path matters to the binding; the host is a placeholder.
  const response = await assets.fetch(`https://assets.invalid/${path}`);
  if (!response.ok) {
    await response.body?.cancel();
    throw misconfigured(
      'ASSETS',
      `has no ${path} (${response.status}): skills/ is built into it by npm run build:skills, which wrangler runs before dev, test and deploy (docs/skills.md)`,
    );
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** Base64 of any length, a slice at a time (`String.fromCharCode` takes a bounded number of arguments). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
