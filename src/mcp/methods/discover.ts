/**
 * `server/discover` (spec 2026-07-28 server/discover): the versions served, the capabilities,
 * the instructions and `serverInfo`, serialized once per isolate for each kind of caller
 * (anonymous or authenticated, legacy clients served or not).
 */
import { RawJson } from '../json';
import { servedVersions } from '../legacy';
import type { CompiledDefinition } from '../compiledDefinition';
import type { Method } from '../request';

export function discover(server: CompiledDefinition): Method {
  const body = (servesLegacy: boolean) => ({
    supportedVersions: servedVersions(servesLegacy),
    capabilities: server.capabilities,
    ...(server.instructions ? { instructions: server.instructions } : {}),
  });
  // Indexed by [authenticated][servesLegacy].
  const answers = [false, true].map((authenticated) =>
    [false, true].map((legacy) => new RawJson(JSON.stringify(server.finished(body(legacy), server.cache('server/discover', authenticated)).result))),
  );
  return (request) => {
    const authenticated = request.caller !== undefined;
    return { result: answers[Number(authenticated)]![Number(request.servesLegacy === true)]!, cache: server.cache('server/discover', authenticated) };
  };
}
