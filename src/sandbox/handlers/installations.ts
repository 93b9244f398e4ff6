/**
 * Installations: the repositories an installation sees, and creating/updating installations. The
 * spec shows none of the create bodies; the sandbox takes `{ organizationId, name? }` plus any
 * provider fields (kept as settings) and gives each new installation two repositories to link.
 */
import type { HandlerContext, HandlerTable } from './handler-context.js';
import type { InstallationRec, Source } from '../model.js';
import { badRequest, notFound } from '../http-error.js';
import { findInstallation } from './repos.js';
import { repoUrl, slug } from '../data/seed.js';
import { int, mix, mulberry32 } from '../prng.js';

const P = '/api/v1/installations/';
const SECRET_KEYS = /token|secret|password|key/i;

function create(provider: Source, kind: string, ok = false) {
  return (c: HandlerContext) => {
    const org = c.org();
    const n = c.store.counters.installation;
    const r = mulberry32(mix(c.store.seed, 41, n));
    const now = c.store.nowIso();
    const settings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(c.body)) if (k !== 'organizationId' && k !== 'name') settings[k] = SECRET_KEYS.test(k) ? '(stored)' : v;
    const appId = typeof c.body.appId === 'string' || typeof c.body.appId === 'number' ? String(c.body.appId)
      : typeof c.body.installationId === 'string' || typeof c.body.installationId === 'number' ? String(c.body.installationId) : String(int(r, 100000, 999999));
    const inst: InstallationRec = {
      id: c.store.nextId('installation'), organizationId: org.id, provider, kind, appId,
      name: typeof c.body.name === 'string' && c.body.name ? c.body.name : `${slug(org.name)} on ${provider}`,
      createdAt: now, updatedAt: now, settings, repositories: [],
    };
    for (let k = 1; k <= 2; k++) {
      const name = `${provider}-new-${n}-${k}`;
      inst.repositories.push({ id: c.store.nextId('instrepo'), name, fullName: `${slug(org.name)}/${name}`, url: repoUrl(provider, slug(org.name), name), defaultBranch: 'main', private: true });
    }
    c.store.installations.push(inst);
    c.store.changed();
    return ok ? { ok: true } : { id: inst.id };
  };
}

export const installationHandlers: HandlerTable = {
  /** `{ organizationId, appId? }` -> the repositories of that installation (of all the organization's installations without appId). */
  [P + 'repositories'](c) {
    const org = c.org();
    const list = typeof c.body.appId === 'string' ? [findInstallation(c, c.body.appId)] : c.store.installations.filter((i) => i.organizationId === org.id);
    const linked = new Map(c.store.repos.filter((r) => r.organizationId === org.id).map((r) => [r.url, r.id]));
    return list.flatMap((inst) => inst.repositories.map((r) => ({
      ...r, provider: inst.provider, installationId: inst.id, appId: inst.appId, linkedRepositoryId: linked.get(r.url) ?? null,
    })));
  },
  [P + 'create-hostb-installation']: create('hostb', 'workspace'),
  /** `{ organizationId, installationId, ... }`: changes the name and settings -> `{ id }`. */
  [P + 'update-hostb-installation'](c) {
    const raw = c.body.installationId ?? c.body.id;
    if (raw === undefined || raw === null || raw === '') throw badRequest(`missing required field 'installationId'`);
    if (typeof raw !== 'string' && typeof raw !== 'number') throw badRequest(`invalid field 'installationId': expected a string`);
    const id = String(raw);
    const inst = c.store.installations.find((i) => (i.id === id || i.appId === id) && i.provider === 'hostb' && i.organizationId === c.org().id);
    if (!inst) throw notFound(`host B installation '${id}' not found`);
    for (const [k, v] of Object.entries(c.body)) {
      if (k === 'organizationId' || k === 'installationId' || k === 'id') continue;
      if (k === 'name' && typeof v === 'string') inst.name = v;
      else inst.settings[k] = SECRET_KEYS.test(k) ? '(stored)' : v;
    }
    inst.updatedAt = c.store.nowIso();
    c.store.changed();
    return { id: inst.id };
  },
  [P + 'create-hosta-installation']: create('hosta', 'app'),
  [P + 'create-hostc-token-installation']: create('hostc', 'token', true),
  [P + 'create-hostc-oauth-installation']: create('hostc', 'oauth'),
};
