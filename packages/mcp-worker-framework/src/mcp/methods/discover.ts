/**
 * `server/discover` (spec 2026-07-28 server/discover): the versions served, the capabilities,
 * the instructions and `serverInfo`, serialized once per isolate for each kind of caller
 * (anonymous or authenticated, legacy clients served or not), on its first request.
 */
import { RawJson } from '../json.js';
import { servedVersions } from '../legacy.js';
import { resultJson } from '../resultJson.js';
import type { CompiledDefinition } from '../compiledDefinition.js';
import type { Method } from '../request.js';

export function discover(compiled: CompiledDefinition): Method {
  const body = (servesLegacy: boolean) => ({
    supportedVersions: servedVersions(servesLegacy),
    capabilities: withProtocol(compiled),
    ...(compiled.instructions ? { instructions: compiled.instructions } : {}),
  });
  // Indexed by 2 × authenticated + servesLegacy; each serialized on its first request, not at module load.
  const answers: (RawJson | undefined)[] = [];
  return (request) => {
    const authenticated = request.caller !== undefined;
    const legacy = request.servesLegacy === true;
    const cache = compiled.cache('server/discover', authenticated);
    // discover is no method of the legacy era: its result is always in the modern shape.
    const result = (answers[2 * Number(authenticated) + Number(legacy)] ??= new RawJson(
      resultJson(compiled.finished(body(legacy), cache).result, false),
    ));
    return { result, cache };
  };
}

/**
 * The capabilities, with what the extensions' `protocol` makes true (notifications: `listChanged`,
 * `resources.subscribe`) for the kinds of item the server has, and the one named as the extension
 * itself, its own (events: a top-level `events`): modern clients only, since an `initialize`-era
 * client has no `subscriptions/listen` to receive them on.
 */
function withProtocol({ capabilities, extensions }: CompiledDefinition) {
  const merged: Record<string, object | undefined> = { ...capabilities };
  for (const { id, protocol } of extensions)
    for (const kind in protocol)
      if (kind === id || merged[kind]) merged[kind] = { ...merged[kind], ...protocol[kind as keyof typeof protocol] };
  return merged;
}
