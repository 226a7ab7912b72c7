/**
 * The types a prompt's `get` and a resource template's `read` and `complete` take, worked out from
 * the definition itself (types only): a prompt's `arguments`, a template's `uriTemplate`.
 */

/** Flattens an intersection into one object type, for readable hovers and messages. */
type Simplify<T> = { [K in keyof T]: T[K] };

/**
 * A prompt's arguments by name: a `required: true` one is a string, the others may be missing.
 * A name widened to `string` (arguments built at run time) gives an index of optional strings.
 */
export type PromptArguments<Args extends readonly { name: string; required?: boolean }[]> = Simplify<
  {
    [A in Args[number] as A extends { required: true }
      ? string extends A['name']
        ? never
        : A['name']
      : never]: string;
  } & {
    [A in Args[number] as A extends { required: true } ? (string extends A['name'] ? A['name'] : never) : A['name']]?:
      | string
      | undefined;
  }
>;

/** The expressions of an RFC 6570 template, each `{…}` without its braces. */
type Expressions<T extends string> = T extends `${string}{${infer Expression}}${infer Rest}`
  ? Expression | Expressions<Rest>
  : never;

/** The variable names of an expression's list (`q,lang`), without their modifiers (`:3`, `*`). */
type Names<List extends string> = List extends `${infer First},${infer Rest}`
  ? Names<First> | Names<Rest>
  : List extends `${infer Name}:${string}`
    ? Name
    : List extends `${infer Name}*`
      ? Name
      : List;

/** `{var}` and `{+var}` match only when the variable is there; `{?q}` (and RFC 6570's other operators) may be absent. */
type Required<E> = E extends `${'+'}${infer List}`
  ? Names<List>
  : E extends `${'#' | '.' | '/' | ';' | '?' | '&'}${string}`
    ? never
    : E extends string
      ? Names<E>
      : never;
type Optional<E> = E extends `${'#' | '.' | '/' | ';' | '?' | '&'}${infer List}` ? Names<List> : never;

/** A template's variables: `'github://{owner}/{repo}{?ref}'` gives `{ owner: string; repo: string; ref?: string }`. */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string>
  : Simplify<{ [K in Required<Expressions<T>>]: string } & { [K in Optional<Expressions<T>>]?: string | undefined }>;

/** The names a template's `complete` may suggest values for: its variables. */
export type TemplateVariableName<T extends string> = string extends T
  ? string
  : Required<Expressions<T>> | Optional<Expressions<T>>;
