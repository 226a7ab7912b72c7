/**
 * The Worker src/index.ts composes answers as the spec (revision 2026-07-28) says: discover, each
 * list it advertises, a tool call with arguments that break the tool's schema, a version it does not
 * speak. The tests are the framework's (`specCheck`), every expected value taken from your server,
 * so this file stays as it is when you replace the examples with your own tools, resources and
 * prompts, or have none of one kind. With auth on, give it the settings and the credentials a
 * client sends: node_modules/mcp-worker-framework/docs/testing.md, "Test a Worker with auth on".
 */
import { specCheck } from 'mcp-worker-framework/testing';
import worker from '../src/index';

specCheck(worker);
