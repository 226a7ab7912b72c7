/** The Worker, composed in code: `createWorker(definition, options)` (src/index.ts of a fork). */
export { createWorker, type DurableObjectClass, type WorkerExtension, type WorkerOptions } from '../createWorker.js';
export type { FrameworkEnv, WorkerEnv } from '../env.js';
export { homePage } from '../http/discovery/homePage.js';
export {
  route,
  type Handler,
  type Method,
  type Page,
  type Route,
  type PageContext,
  type StepContext,
  type WorkerStep,
} from '../http/route.js';
