/** A prompt's `get` is typed by its `arguments`; a template's `read` and `complete` by its `uriTemplate`. */
import { definePrompt, defineResourceTemplate } from '../../src/mcp';
import { expectType, type Equal } from './expect';

const messages = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});

definePrompt({
  name: 'review',
  arguments: [
    { name: 'repo', required: true },
    { name: 'focus', complete: (typed) => [typed] },
  ],
  get: (args) => {
    expectType<Equal<typeof args, { repo: string; focus?: string | undefined }>>();
    // @ts-expect-error focus is not required: it may be missing
    const focus: string = args.focus;
    // @ts-expect-error no argument is called language
    return messages(`${args.repo} ${focus} ${args.language}`);
  },
});

defineResourceTemplate({
  uriTemplate: 'github://{owner}/{repo}/{+path}{?ref,depth}',
  name: 'file',
  read: (uri, variables) => {
    expectType<
      Equal<
        typeof variables,
        { owner: string; repo: string; path: string; ref?: string | undefined; depth?: string | undefined }
      >
    >();
    // @ts-expect-error no variable is called branch
    return { contents: [{ uri, text: variables.branch }] };
  },
  complete: {
    owner: (typed) => [typed],
    // @ts-expect-error a completer only for a variable of the template
    branch: (typed) => [typed],
  },
});
