/** Repositories: list, link (add-*), create, delete, the setters, reset, branches, resolve-by-url. */
import type { HandlerContext, HandlerTable } from './handler-context.js';
import { publicView } from './handler-context.js';
import type { InstallationRec, RepoRec, Source } from '../model.js';
import { badRequest, notFound } from '../http-error.js';
import { defaultScannerSettings, newRepo, repoUrl, slug } from '../data/seed.js';
import { hex, mix, mulberry32 } from '../prng.js';

const P = '/api/v1/repositories/';

/** The Repository record as `repos list` returns it. */
function repoView(c: HandlerContext, repo: RepoRec, counts: boolean): Record<string, unknown> {
  const view = publicView(repo);
  if (counts) view.issueCounts = c.store.repoCounts().get(repo.id) ?? { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0 };
  return view;
}

export function findInstallation(c: HandlerContext, appId: string): InstallationRec {
  const org = c.org();
  const inst = c.store.installations.find((i) => i.organizationId === org.id && (i.appId === appId || i.id === appId));
  if (!inst) throw notFound(`installation (app) '${appId}' not found in organization ${org.id}`);
  return inst;
}

/** `https://Host/a/b.git/` -> `host/a/b`, to compare repository URLs loosely. */
function normalizeUrl(url: string): string {
  return url.trim().toLowerCase().replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '').replace(/^www\./, '').replace(':', '/')
    .replace(/\/+$/, '').replace(/\.git$/, '');
}

interface LinkItem { repositoryName?: unknown; repositoryUrl?: unknown; defaultBranch?: unknown; url?: unknown; name?: unknown }

/** add-hosta / add-hostb / add-hostc: link `repos` items, or `repositoryIds` of the installation's repositories. */
function link(source: 'hosta' | 'hostb' | 'hostc') {
  return (c: HandlerContext) => {
    const org = c.org();
    const inst = c.store.installations.find((i) => i.organizationId === org.id && i.provider === source);
    let items: LinkItem[];
    if (Array.isArray(c.body.repositoryIds) && c.body.repositoryIds.length) {
      if (!inst) throw badRequest(`organization ${org.id} has no ${source} installation; create one first`);
      items = (c.body.repositoryIds as unknown[]).map((id) => {
        const r = inst.repositories.find((x) => x.id === id);
        if (!r) throw notFound(`repository '${String(id)}' not found in installation ${inst.id}`);
        return { repositoryName: r.name, repositoryUrl: r.url, defaultBranch: r.defaultBranch };
      });
    } else if (Array.isArray(c.body.repos)) {
      items = c.body.repos as LinkItem[];
      if (items.length === 0) throw badRequest(`invalid field 'repos': give at least one repository`);
    } else {
      throw badRequest(`missing required field 'repos' (a list of {repositoryUrl, repositoryName, defaultBranch}; or 'repositoryIds' of the installation)`);
    }
    return items.map((item, k) => {
      if (item === null || typeof item !== 'object') throw badRequest(`invalid field 'repos.${k}': expected an object`);
      const url = str(item.repositoryUrl ?? item.url, `repos.${k}.repositoryUrl`);
      const name = str(item.repositoryName ?? item.name, `repos.${k}.repositoryName`);
      if (!url && !name) throw badRequest(`missing required field 'repos.${k}.repositoryUrl'`);
      return { id: addRepo(c, source, name ?? url!.replace(/\.git$/, '').split('/').pop()!, url, str(item.defaultBranch, `repos.${k}.defaultBranch`), inst).id };
    });
  };
}

function str(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badRequest(`invalid field '${field}': expected a string`);
  return v;
}

/** Create a repository (or return the one already linked with the same URL). */
function addRepo(c: HandlerContext, source: Source, name: string, url: string | undefined, branch: string | undefined, inst?: InstallationRec): RepoRec {
  const org = c.org();
  const finalUrl = url ?? repoUrl(source, slug(org.name), name);
  const existing = c.store.repos.find((r) => r.organizationId === org.id && r.source === source && normalizeUrl(r.url) === normalizeUrl(finalUrl));
  if (existing) return existing;
  const r = mulberry32(mix(c.store.seed, 31, c.store.counters.repo));
  const repo = newRepo({
    id: c.store.nextId('repo'), projectId: typeof c.body.projectId === 'string' ? c.body.projectId : c.store.nextId('project'),
    organizationId: org.id, name, source, url: finalUrl, branch: branch ?? 'main', now: c.store.nowIso(), installationId: inst?.id,
    providerId: source === 'hosta' || source === 'hostb' ? c.store.nextId('provider') : undefined,
    externalId: source === 'hosta' ? String(parseInt(hex(r, 7), 16)) : undefined,
  });
  c.store.repos.push(repo);
  c.store.changed();
  return repo;
}

/** A setter: `{ organizationId, repositoryId, <field> }` -> `{ ok }`. */
function setter(field: string, apply: (repo: RepoRec, value: unknown) => void = (repo, v) => { (repo as unknown as Record<string, unknown>)[field] = v; }) {
  return (c: HandlerContext) => {
    const repo = c.repo(c.need('repositoryId'));
    if (!(field in c.body)) throw badRequest(`missing required field '${field}'`);
    apply(repo, c.body[field]);
    repo.updatedAt = c.store.nowIso();
    c.store.changed();
    return { ok: true };
  };
}

export const repoHandlers: HandlerTable = {
  [P + 'list'](c) {
    const repos = [...c.orgRepos().values()];
    const appId = typeof c.body.appId === 'string' ? findInstallation(c, c.body.appId).id : undefined;
    const q = typeof c.body.searchQuery === 'string' ? c.body.searchQuery.toLowerCase() : '';
    return repos.filter((r) => (!appId || r._installationId === appId) && r.name.toLowerCase().includes(q))
      .map((r) => repoView(c, r, c.body.getCounts !== false));
  },
  [P + 'add-hosta']: link('hosta'),
  [P + 'add-hostb']: link('hostb'),
  [P + 'add-hostc']: link('hostc'),

  /** `{ organizationId, repositoryUrl, accessToken, defaultBranch? }` -> `{ id }`. */
  [P + 'add-hosta-pat'](c) {
    const url = c.need('repositoryUrl');
    c.need('accessToken');
    if (!/^https?:\/\/[^/]+\/.+/.test(url)) throw badRequest(`invalid field 'repositoryUrl': expected an http(s) URL of a repository`);
    const name = url.replace(/\.git$/, '').replace(/\/+$/, '').split('/').pop()!;
    return { id: addRepo(c, 'hosta', name, url, str(c.body.defaultBranch, 'defaultBranch')).id };
  },

  /** `{ organizationId, name, defaultBranch? }` -> `{ id }`. */
  [P + 'create-standalone'](c) {
    const name = c.need('name');
    if (!/^[\w.-]{1,100}$/.test(name)) throw badRequest(`invalid field 'name': use letters, digits, '.', '_' and '-' (at most 100)`);
    return { id: addRepo(c, 'standalone', name, undefined, str(c.body.defaultBranch, 'defaultBranch')).id };
  },

  [P + 'delete'](c) {
    const repo = c.repo(c.need('repositoryId'));
    c.store.removeRepos(new Set([repo.id]));
    return { ok: true };
  },

  [P + 'set-scan-branch']: setter('defaultScanTargetBranch', (repo, v) => {
    repo.defaultScanTargetBranch = String(v);
    if (!repo._branches.includes(repo.defaultScanTargetBranch)) repo._branches.push(repo.defaultScanTargetBranch);
  }),
  [P + 'set-pr-scanning']: setter('isPrScanningEnabled'),
  [P + 'set-pr-scan-issue-summary']: setter('isPrScanSummaryEnabled'),
  [P + 'set-pr-scan-clean-summary']: setter('isPrScanCleanSummaryEnabled'),
  [P + 'set-pr-scan-summaries-enabled']: setter('isEnabled', (repo, v) => {
    repo.isPrScanSummaryEnabled = v === true;
    repo.isPrScanCleanSummaryEnabled = v === true;
  }),
  [P + 'set-max-pr-timeout']: setter('maxPrTimeoutMinutes', (repo, v) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 1440) throw badRequest(`invalid field 'maxPrTimeoutMinutes': must be a whole number of minutes from 1 to 1440`);
    repo.maxPrTimeoutMinutes = v;
  }),
  [P + 'set-show-check-status']: setter('showCheckStatus'),
  [P + 'set-pr-branch-format']: setter('prBranchFormat'),
  [P + 'set-pr-commit-message-format']: setter('prCommitMessageFormat'),
  [P + 'set-pr-title-template']: setter('prTitleTemplate'),
  [P + 'set-pr-description-template']: setter('prDescriptionTemplate'),

  /** `{ organizationId, repositoryIds }` -> `{ ok, repositoryIds }`; 404 if any id is unknown (nothing is reset then). */
  [P + 'reset-scanner-settings'](c) {
    const ids = c.body.repositoryIds;
    if (!Array.isArray(ids) || ids.length === 0) throw badRequest(`missing required field 'repositoryIds'`);
    const repos = (ids as string[]).map((id) => c.repo(id));
    for (const repo of repos) {
      Object.assign(repo, defaultScannerSettings());
      repo.updatedAt = c.store.nowIso();
    }
    c.store.changed();
    return { ok: true, repositoryIds: repos.map((r) => r.id) };
  },

  /** `{ organizationId, repositoryId }` -> `{ repositoryId, defaultBranch, branches: [{ name, isDefault, commitSha }] }`. */
  [P + 'branches'](c) {
    const repo = c.repo(c.need('repositoryId'));
    if (repo.source === 'standalone') throw badRequest(`repository '${repo.id}' is standalone: it has no git branches`);
    const r = mulberry32(mix(c.store.seed, 37, c.store.repos.indexOf(repo)));
    const names = [repo.defaultScanTargetBranch, ...repo._branches.filter((b) => b !== repo.defaultScanTargetBranch)];
    return {
      repositoryId: repo.id,
      defaultBranch: repo.defaultScanTargetBranch,
      ...(repo.source === 'generic' ? { bestEffort: true } : {}),
      branches: names.map((name) => ({ name, isDefault: name === repo.defaultScanTargetBranch, commitSha: hex(r, 40) })),
    };
  },

  /** `{ repositoryUrl, vcs, organizationId? }` -> `{ repositoryId, organizationId, vcs, <provider ids> }`; 404 if no match. */
  [P + 'resolve-by-url'](c) {
    const url = normalizeUrl(c.need('repositoryUrl'));
    const vcs = c.need('vcs');
    const inOrg = typeof c.body.organizationId === 'string' ? c.org().id : undefined;
    const repo = c.store.repos.find((r) => r.source === vcs && (!inOrg || r.organizationId === inOrg)
      && (normalizeUrl(r.url) === url || (r.repositoryUrl !== null && normalizeUrl(r.repositoryUrl) === url)));
    if (!repo) throw notFound(`no linked ${vcs} repository has the URL '${String(c.body.repositoryUrl)}'`);
    return {
      repositoryId: repo.id,
      organizationId: repo.organizationId,
      projectId: repo.projectId,
      vcs,
      ...(repo.hostARepository ? { hostARepositoryId: repo.hostARepository.id, externalHostARepositoryId: repo.hostARepository.externalHostARepositoryId } : {}),
      ...(repo.hostBRepository ? { hostBRepositoryId: repo.hostBRepository.id } : {}),
    };
  },
};
