/**
 * A tool that calls an upstream API with `fetch`: upstream failures become tool errors
 * the model can read, the request's abort signal stops the fetch if the client leaves, and
 * the context's fetch passes the W3C trace context on.
 *
 * Arguments come from a model, which may have read anything: before one becomes part of an
 * upstream URL, it is held to the names the upstream allows (the schema, checked before the
 * handler runs) and each is encoded as one path segment. `.` and `..` are refused by the schema,
 * since a URL parser resolves them, encoded or not (`/repos/../admin` is `/admin`).
 */
import { defineTool, ToolError } from 'mcp-worker-framework';

interface Repo {
  full_name: string;
  description: string | null;
  stargazers_count: number;
  forks_count: number;
  language: string | null;
  html_url: string;
}

/** A GitHub user or organization: letters, digits and single hyphens inside, at most 39. */
const OWNER = '^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$';
/** A repository: letters, digits, `_`, `.` and `-`, at most 100, but neither `.` nor `..`. */
const REPO = '^(?!\\.\\.?$)[A-Za-z0-9_.-]{1,100}$';

export const githubRepo = defineTool({
  name: 'github_repo',
  title: 'GitHub repository',
  description: 'Looks up a public GitHub repository: description, stars, forks and main language.',
  inputSchema: {
    type: 'object',
    properties: {
      owner: { type: 'string', pattern: OWNER, description: 'User or organization, e.g. "cloudflare"' },
      repo: { type: 'string', pattern: REPO, description: 'Repository name, e.g. "workers-sdk"' },
    },
    required: ['owner', 'repo'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler({ owner, repo }, { env, signal, fetch }) {
    let response: Response;
    try {
      // context.fetch carries the request's trace context (traceparent) upstream
      response = await fetch(`${env.GITHUB_API_URL}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`, {
        headers: { Accept: 'application/vnd.github+json', 'User-Agent': 'mcp-worker-template' },
        signal,
      });
    } catch {
      throw new ToolError('Could not reach GitHub; try again later.');
    }
    if (response.status === 404) throw new ToolError(`Repository ${owner}/${repo} does not exist or is private.`);
    if (!response.ok) throw new ToolError(`GitHub answered HTTP ${response.status}; try again later.`);
    const data = (await response.json()) as Repo;
    const summary = {
      name: data.full_name,
      description: data.description,
      stars: data.stargazers_count,
      forks: data.forks_count,
      language: data.language,
      url: data.html_url,
    };
    return { content: [{ type: 'text', text: JSON.stringify(summary) }], structuredContent: summary };
  },
});
