/**
 * An extension as the Worker turns it on (createWorker's `extensions`): the core's `Extension`,
 * plus, for one that runs in a Durable Object (tasks, notifications), the class src/index.ts
 * exports. Declared here, beside the seam it extends, so that an extension names its own type
 * without importing the Worker that composes it (test/unit/import-graph.test.ts).
 */
import type { DurableObject } from 'cloudflare:workers';
import type { CompiledServer } from './createServer.js';
import type { WorkerEnv } from './env.js';
import type { Extension } from './extension.js';

/** A Durable Object class, as src/index.ts exports it. */
export type DurableObjectClass = new (ctx: DurableObjectState, env: WorkerEnv) => DurableObject<WorkerEnv>;

/** A Durable Object an extension runs in: the name src/index.ts exports its class under, its binding, and how the class is made. */
export interface ExtensionObject<Name extends string = string> {
  readonly name: Name;
  /** Its `[[durable_objects.bindings]]` name in wrangler.toml, which `npm run check` requires (scripts/workerFacts.mjs). */
  readonly binding: string;
  /** The class, made from the compiled server (a task runs the server's tool; the notifications hub needs none of it). */
  make(server: CompiledServer): DurableObjectClass;
}

/** An extension the Worker turns on; one that runs in a Durable Object (tasks, notifications) brings its class. */
export interface WorkerExtension extends Extension {
  readonly durableObject?: ExtensionObject;
}
