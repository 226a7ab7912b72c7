/**
 * The template's own server with every feature on: src/index.ts with tasks() in `extensions` and
 * signIn() in `auth`, serving the example tool that acts as the signed-in user. The examples'
 * tests of those features run it (./wrangler.toml); a fork deletes it with the examples.
 */
import { apps } from 'mcp-worker-framework/apps';
import { access, bearer, introspect, jwt } from 'mcp-worker-framework/auth';
import { signIn } from 'mcp-worker-framework/signin';
import { tasks } from 'mcp-worker-framework/tasks';
import { createWorker, type WorkerEnv } from 'mcp-worker-framework/worker';
import { skills } from '../skills';
import { serverDefinition } from '../src/server';
import { myRepositories } from '../src/tools/my-repositories';

const worker = createWorker(serverDefinition, {
  auth: [bearer, jwt, access, introspect, signIn({ tools: [myRepositories] })],
  extensions: [apps(), ...skills, tasks()],
});

export class McpTask extends worker.McpTask {}

export default { fetch: worker.fetch } satisfies ExportedHandler<WorkerEnv>;
