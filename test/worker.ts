/**
 * The template's own server with every feature on: src/index.ts with `extensions: [tasks()]` and
 * signIn() in `auth`, serving the example tool that acts as the signed-in user. The examples'
 * tests of those features run it (./wrangler.toml); a fork deletes it with the examples.
 */
import { apps } from '../../src/apps';
import { access, bearer, introspect, jwt } from '../../src/auth';
import { createWorker } from '../../src/createWorker';
import { serverDefinition } from '../../src/server';
import { signIn } from '../../src/signin';
import { tasks } from '../../src/tasks';
import { myRepositories } from '../../src/tools/my-repositories';

const worker = createWorker(serverDefinition, {
  auth: [bearer, jwt, access, introspect, signIn({ tools: [myRepositories] })],
  extensions: [apps(), tasks()],
});

export class McpTask extends worker.McpTask {}

export default { fetch: worker.fetch } satisfies ExportedHandler<Env>;
