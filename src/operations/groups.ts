/** The API groups: names, aliases and summaries (cheap to load: top-level help and dispatch need only these). */
import type { Group } from './types.js';

export const GROUPS: readonly Group[] = [
  { name: 'orgs', api: 'orgs', aliases: ['organizations'], summary: 'Organizations: list, create, invite, delete' },
  { name: 'repos', api: 'repositories', aliases: ['repositories'], summary: 'Repositories: link, list, configure scanning and PR behaviour' },
  { name: 'installations', api: 'installations', aliases: [], summary: 'Provider installations: connect organizations to git hosts' },
  { name: 'stats', api: 'stats', aliases: [], summary: 'Statistics: posture, counts by severity, repository, author, class' },
  { name: 'issues', api: 'issues', aliases: [], summary: 'Security issues: search, triage, patch' },
  { name: 'scans', api: 'scans', aliases: [], summary: 'Scans and scan schedules' },
];
