/**
 * A tool that acts as the signed-in user, served with sign-in on only (`signIn({ tools:
 * [myRepositories] })` in src/index.ts, node_modules/mcp-worker-framework/docs/sign-in.md): it
 * lists the caller's own GitHub repositories, private ones included when the GitHub app was
 * granted `repo`, with the upstream token stored when they signed in.
 *
 * GitHub refusing that token means the user revoked the app: the answer is 401, and the client's
 * refresh then finds the grant refused upstream and sends the user to sign in again. GitHub not
 * answering is a tool error that says to try again.
 */
import { defineTool, ToolError } from 'mcp-worker-framework';
import { githubApiHeaders, unauthorized, type UpstreamProps } from 'mcp-worker-framework/signin';

interface Repo {
  full_name: string;
  private: boolean;
  description: string | null;
  html_url: string;
}

export const myRepositories = defineTool({
  name: 'my_repositories',
  title: 'My GitHub repositories',
  description: "Lists the signed-in user's GitHub repositories, most recently updated first.",
  inputSchema: {
    type: 'object',
    properties: { count: { type: 'integer', minimum: 1, maximum: 100, description: 'How many (default 10)' } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler({ count = 10 }, { caller, env, signal, fetch }) {
    const props = caller?.props as UpstreamProps | undefined;
    if (props?.provider !== 'github' || typeof props.accessToken !== 'string')
      throw new ToolError(
        'This tool needs a user signed in with GitHub (node_modules/mcp-worker-framework/docs/sign-in.md).',
      );
    let response: Response;
    try {
      // LOGIN_GITHUB_API_URL: the settings have checked it is a URL (GitHub Enterprise, or a test's stand-in).
      const api = (env.LOGIN_GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
      response = await fetch(`${api}/user/repos?sort=updated&per_page=${count}`, {
        headers: githubApiHeaders(props.accessToken),
        signal,
      });
    } catch {
      throw new ToolError('Could not reach GitHub; try again later.');
    }
    // RFC 6750 3.1: the user's GitHub grant is gone; authorizing again is the way back.
    if (response.status === 401) throw unauthorized('GitHub no longer accepts your sign-in: authorize again');
    if (!response.ok) throw new ToolError(`GitHub answered HTTP ${response.status}; try again later.`);
    const repos = ((await response.json()) as Repo[]).slice(0, count).map((repo) => ({
      name: repo.full_name,
      private: repo.private,
      description: repo.description,
      url: repo.html_url,
    }));
    return { content: [{ type: 'text', text: JSON.stringify(repos) }], structuredContent: { repositories: repos } };
  },
});
