/** A prompt: a ready-made request for the model, with arguments the user fills in. */
import { definePrompt } from 'mcp-worker-framework';

export const summarizeRepo = definePrompt({
  name: 'summarize_repo',
  title: 'Summarize a GitHub repository',
  description: 'Asks the model to look a repository up with github_repo and summarise it.',
  arguments: [
    { name: 'owner', description: 'User or organization', required: true },
    { name: 'repo', description: 'Repository name', required: true },
    {
      name: 'audience',
      description: 'Who the summary is for',
      complete: (typed) => ['developers', 'managers', 'newcomers'].filter((a) => a.startsWith(typed)),
    },
  ],
  get: ({ owner, repo, audience = 'developers' }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'text',
          text: `Use the github_repo tool to look up ${owner}/${repo}, then summarise what it is, how popular it is and its main language, for ${audience}.`,
        },
      },
    ],
  }),
});
