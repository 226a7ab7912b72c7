/**
 * The TypeScript type of the values a JSON Schema accepts, worked out by the compiler from the
 * schema literal itself (types only: nothing here reaches the bundle). `defineTool` uses it so a
 * handler's `args` and its `structuredContent` come from `inputSchema` and `outputSchema`.
 *
 * Modelled (JSON Schema 2020-12, the keywords tools use): `type` (one or a list; `integer` is
 * `number`), `properties` + `required` (a property absent from `required` is optional, `default`
 * or not), `additionalProperties` (`false`: only the declared keys; a schema: an index signature),
 * `items`, `prefixItems`, `enum`, `const`, `anyOf`/`oneOf` (a union), `allOf` (an intersection).
 * Every other keyword only narrows what a validator accepts, so leaving it out gives a wider type,
 * never a wrong one; what cannot be modelled (`$ref`, `patternProperties`, a schema whose literals
 * were widened to `string`) gives `unknown` for that part. Past `MaxDepth` nested schemas the type
 * is `unknown` too, well before TypeScript would stop with "excessively deep" (TS2589).
 */

/** Nested subschemas followed before giving up with `unknown`. */
type MaxDepth = 10;

/** The values `S` accepts. `Depth` counts the subschemas entered so far (a tuple's length). */
export type FromSchema<S, Depth extends readonly unknown[] = []> = Depth['length'] extends MaxDepth
  ? unknown
  : S extends true
    ? unknown
    : S extends false
      ? never
      : S extends object
        ? Simplify<
            TypePart<S, [...Depth, 0]> &
              ConstPart<S> &
              EnumPart<S> &
              AnyOfPart<S, [...Depth, 0]> &
              OneOfPart<S, [...Depth, 0]> &
              AllOfPart<S, [...Depth, 0]>
          >
        : unknown;

/** Flattens an intersection of object types into one, for readable hovers and messages; leaves others alone. */
type Simplify<T> = T extends readonly unknown[] | ((...args: never[]) => unknown)
  ? T
  : T extends object
    ? { [K in keyof T]: T[K] }
    : T;

type TypePart<S, D extends readonly unknown[]> = S extends { readonly type: infer T }
  ? T extends string
    ? OfType<T, S, D>
    : T extends readonly (infer Each extends string)[]
      ? OfType<Each, S, D>
      : unknown
  : unknown;

/** `type` names distributed: a widened `string` is none of them, so `unknown`. */
type OfType<T extends string, S, D extends readonly unknown[]> = string extends T
  ? unknown
  : T extends 'string'
    ? string
    : T extends 'number' | 'integer'
      ? number
      : T extends 'boolean'
        ? boolean
        : T extends 'null'
          ? null
          : T extends 'array'
            ? ArrayOf<S, D>
            : T extends 'object'
              ? ObjectOf<S, D>
              : NoSuchType;

/**
 * A `type` that names no JSON type (`'integr'`): `defineTool` refuses it at the tool, naming it
 * (`TypeNamesChecked`, ./toolSchema.ts), so the handler does not add a second error far from it.
 */
// biome-ignore lint/suspicious/noExplicitAny: only where the tool already fails to compile
type NoSuchType = any;

type ConstPart<S> = S extends { readonly const: infer C } ? C : unknown;
type EnumPart<S> = S extends { readonly enum: readonly (infer E)[] } ? E : unknown;
type AnyOfPart<S, D extends readonly unknown[]> = S extends { readonly anyOf: readonly (infer E)[] }
  ? FromSchema<E, D>
  : unknown;
type OneOfPart<S, D extends readonly unknown[]> = S extends { readonly oneOf: readonly (infer E)[] }
  ? FromSchema<E, D>
  : unknown;
type AllOfPart<S, D extends readonly unknown[]> = S extends { readonly allOf: infer List extends readonly unknown[] }
  ? Intersect<List, D>
  : unknown;

type Intersect<List extends readonly unknown[], D extends readonly unknown[]> = List extends readonly [
  infer First,
  ...infer Rest,
]
  ? FromSchema<First, D> & Intersect<Rest, D>
  : List extends readonly []
    ? unknown
    : unknown;

// ---- objects

type ObjectOf<S, D extends readonly unknown[]> = Props<
  S extends { readonly properties: infer P extends object } ? P : {},
  RequiredKeys<S>,
  D
> &
  Rest<S, D>;

/** The names in `required`; none when the list was widened to `string[]` (it could name any key). */
type RequiredKeys<S> = S extends { readonly required: readonly (infer R extends string)[] }
  ? string extends R
    ? never
    : R
  : never;

type Props<P, R extends string, D extends readonly unknown[]> = {
  -readonly [K in keyof P as K extends R ? K : never]-?: FromSchema<P[K], D>;
} & {
  -readonly [K in keyof P as K extends R ? never : K]+?: FromSchema<P[K], D>;
} & { -readonly [K in Exclude<R, keyof P>]: unknown };

/** Keys besides the declared ones: none (`additionalProperties: false`), those of a schema, or any. */
type Rest<S, D extends readonly unknown[]> = S extends { readonly patternProperties: object }
  ? { [key: string]: unknown }
  : S extends { readonly additionalProperties: false }
    ? {}
    : S extends { readonly additionalProperties: infer A extends object }
      ? { [key: string]: FromSchema<A, D> | DeclaredValues<S, D> }
      : { [key: string]: unknown };

/** What a declared property may hold (an index signature must admit it), undefined for an optional one. */
type DeclaredValues<S, D extends readonly unknown[]> = S extends { readonly properties: infer P extends object }
  ? { [K in keyof P]: FromSchema<P[K], D> }[keyof P] | undefined
  : never;

// ---- arrays

type ArrayOf<S, D extends readonly unknown[]> = S extends {
  readonly prefixItems: infer Prefix extends readonly unknown[];
}
  ? S extends { readonly items: false }
    ? OptionalTuple<Prefix, D>
    : [...OptionalTuple<Prefix, D>, ...ItemsOf<S, D>[]]
  : ItemsOf<S, D>[];

/** `items` when it is one schema; `false` admits nothing after `prefixItems`; an array (draft 2019-09 tuples) or nothing, anything. */
type ItemsOf<S, D extends readonly unknown[]> = S extends { readonly items: infer I }
  ? I extends readonly unknown[]
    ? unknown
    : FromSchema<I, D>
  : unknown;

/** `prefixItems` does not make an array that long (`minItems` would): each element is optional. */
type OptionalTuple<Prefix extends readonly unknown[], D extends readonly unknown[]> = Prefix extends readonly [
  infer First,
  ...infer Rest,
]
  ? [FromSchema<First, D>?, ...OptionalTuple<Rest, D>]
  : [];
