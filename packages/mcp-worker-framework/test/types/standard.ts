/** A Standard Schema types a tool by its own types: `args` its output (transforms applied), a call its input. */
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import * as z from 'zod';
import { defineTool, text } from '../../src/mcp';
import type { CallArgumentsOf } from '../../src/mcp/toolSchema';
import { expectType, type ArgsOf, type Equal } from './expect';

export const withZod = defineTool({
  name: 'zod',
  inputSchema: z.object({
    city: z.string(),
    days: z.number().int().default(3),
    when: z.string().transform((s) => new Date(s)),
  }),
  outputSchema: z.object({ forecast: z.string() }),
  handler: ({ city, days, when }) => ({
    content: [],
    structuredContent: { forecast: `${city} ${days} ${when.toISOString()}` },
  }),
});
expectType<Equal<ArgsOf<typeof withZod>, { city: string; days: number; when: Date }>>();
expectType<
  Equal<CallArgumentsOf<typeof withZod.inputSchema>, { city: string; days?: number | undefined; when: string }>
>();

defineTool({
  name: 'zod_output_mismatch',
  inputSchema: z.object({}),
  outputSchema: z.object({ forecast: z.string() }),
  // @ts-expect-error forecast must be a string
  handler: () => ({ content: [], structuredContent: { forecast: 3 } }),
});

export const withValibot = defineTool({
  name: 'valibot',
  inputSchema: toStandardJsonSchema(
    v.object({ city: v.pipe(v.string(), v.minLength(1)), units: v.optional(v.picklist(['metric', 'imperial'])) }),
  ),
  handler: ({ city, units }) => text(`${city} ${units ?? 'metric'}`),
});
expectType<Equal<ArgsOf<typeof withValibot>, { city: string; units?: 'metric' | 'imperial' | undefined }>>();

defineTool({
  name: 'valibot_without_json_schema',
  // @ts-expect-error a valibot schema gives no JSON Schema until wrapped in toStandardJsonSchema
  inputSchema: v.object({ city: v.string() }),
  handler: () => text(''),
});

export const withArkType = defineTool({
  name: 'arktype',
  inputSchema: type({ city: 'string', 'days?': 'number.integer' }),
  handler: ({ city, days }) => {
    // @ts-expect-error days may be missing
    const n: number = days;
    return text(`${city} ${n}`);
  },
});
expectType<Equal<ArgsOf<typeof withArkType>, { city: string; days?: number }>>();
