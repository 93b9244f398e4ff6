/** Organizations: list, create, invite, delete (bodies and responses beyond `list` are the sandbox's reading). */
import type { HandlerTable } from './handler-context.js';
import { badRequest, notFound } from '../http-error.js';

const P = '/api/v1/orgs/';
const ROLES = ['owner', 'admin', 'member', 'viewer'];

export const orgHandlers: HandlerTable = {
  [P + 'list'](c) {
    const q = typeof c.body.searchQuery === 'string' ? c.body.searchQuery.toLowerCase() : '';
    return c.store.orgs.filter((o) => o.name.toLowerCase().includes(q)).map((o) => ({ id: o.id, name: o.name, role: o.role }));
  },

  /** `{ name }` -> `{ id, name }`; the caller becomes its owner. */
  [P + 'create'](c) {
    const name = c.need('name').trim();
    if (c.store.orgs.some((o) => o.name.toLowerCase() === name.toLowerCase())) throw badRequest(`invalid field 'name': an organization named '${name}' already exists`);
    const org = { id: c.store.nextId('org'), name, role: 'owner', createdAt: c.store.nowIso(), invitations: [] };
    c.store.orgs.push(org);
    c.store.changed();
    return { id: org.id, name: org.name };
  },

  /** `{ organizationId, email, role? }` -> `{ ok, invitationId, email, role }`. */
  [P + 'invite'](c) {
    const org = c.org();
    const email = c.need('email').trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw badRequest(`invalid field 'email': '${email}' is not an e-mail address`);
    const role = c.body.role === undefined ? 'member' : String(c.body.role);
    if (!ROLES.includes(role)) throw badRequest(`invalid field 'role': must be one of ${ROLES.join(', ')}`);
    const inv = { id: c.store.nextId('invitation'), email, role, createdAt: c.store.nowIso() };
    org.invitations.push(inv);
    c.store.changed();
    return { ok: true, invitationId: inv.id, organizationId: org.id, email, role };
  },

  /** `{ organizationId }`: the organization and everything in it. */
  [P + 'delete'](c) {
    const id = c.need('organizationId');
    const org = c.store.org(id);
    if (!org) throw notFound(`organization '${id}' not found`);
    c.store.removeRepos(new Set(c.store.repos.filter((r) => r.organizationId === id).map((r) => r.id)));
    c.store.installations = c.store.installations.filter((i) => i.organizationId !== id);
    c.store.orgs = c.store.orgs.filter((o) => o.id !== id);
    c.store.changed();
    return { ok: true };
  },
};
