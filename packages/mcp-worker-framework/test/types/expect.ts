/** Type assertions: `expectType<Equal<A, B>>()` compiles only when A and B are the same type. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const expectType = <_ extends true>() => undefined;
/** The handler's `args` of a tool, and what its `structuredContent` must be. */
export type ArgsOf<Tool> = Tool extends { handler(args: infer A, ...rest: never[]): unknown } ? A : never;
