/** What a handler gets: the validated body, the store, and lookups that answer 404 for unknown ids. */
import type { IssueRec, OrgRec, RepoRec } from '../model.js';
import type { Store } from '../state.js';
import { badRequest, notFound } from '../http-error.js';

export interface Timing {
  /** How long `scans start` scans run. */
  scanDurationMs: number;
  /** How long `issues generate-patch` takes. */
  patchDelayMs: number;
}

export type Body = Record<string, unknown>;

export class HandlerContext {
  constructor(readonly body: Body, readonly store: Store, readonly timing: Timing) {}

  /** The caller's organization: `organizationId`, else the token's default (the first organization). */
  org(): OrgRec {
    const id = this.body.organizationId;
    if (typeof id === 'string') {
      const org = this.store.org(id);
      if (!org) throw notFound(`organization '${id}' not found`);
      return org;
    }
    const org = this.store.orgs[0];
    if (!org) throw notFound('the token has no organization; create one with `svc orgs create --name NAME`');
    return org;
  }

  /** Repositories of the caller's organization, by id. */
  orgRepos(): Map<string, RepoRec> {
    const org = this.org();
    return this.store.orgRepos(org.id);
  }

  /** A string field that must be there (400 naming it otherwise). */
  need(field: string): string {
    const v = this.body[field];
    if (v === undefined || v === null || v === '') throw badRequest(`missing required field '${field}'`);
    if (typeof v !== 'string') throw badRequest(`invalid field '${field}': expected a string`);
    return v;
  }

  /** A repository by id: 404 if unknown, or not in the organization named by `organizationId`. */
  repo(id: string): RepoRec {
    const repo = this.store.repo(id);
    if (!repo || (typeof this.body.organizationId === 'string' && repo.organizationId !== this.org().id)) {
      throw notFound(`repository '${id}' not found`);
    }
    return repo;
  }

  /** The issue named by `issueId`: 404 if unknown, or not in the organization named by `organizationId`. */
  issue(): IssueRec {
    const id = this.need('issueId');
    const issue = this.store.issue(id);
    const repo = issue && this.store.repo(issue.repositoryId);
    if (!issue || !repo || (typeof this.body.organizationId === 'string' && repo.organizationId !== this.org().id)) {
      throw notFound(`issue '${id}' not found`);
    }
    return issue;
  }
}

type Handler = (c: HandlerContext) => unknown;

/** Handlers by operation path. */
export type HandlerTable = Record<string, Handler>;

/** A record without its private (`_`-prefixed) fields. */
export function publicView<T extends object>(rec: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) if (!k.startsWith('_')) out[k] = v;
  return out;
}
