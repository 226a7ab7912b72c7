/** The Worker, composed in code: `createWorker(definition, options)` (src/index.ts of a fork). */
export { createWorker, type DurableObjectClass, type WorkerExtension, type WorkerOptions } from '../createWorker';
export type { FrameworkEnv, WorkerEnv } from '../env';
export { homePage } from '../http/discovery/homePage';
export {
  route,
  type Handler,
  type Method,
  type Page,
  type Route,
  type PageContext,
  type StepContext,
  type WorkerStep,
} from '../http/route';
