import { anyObject, body, field, id, list, okResponse, orgId, orgIdNamed, str } from './fields.js';
import { organization } from './records.js';
import type { Operation } from './types.js';
import { row } from './row.js';

const NOT_SHOWN = 'The spec and the field notes do not show this body: the flags here are inferred; send other fields with -F/--input.';

export const orgs: Operation[] = [
  row('orgs', 'list', {
    effect: 'read',
    summary: 'List the organizations the token can see',
    request: () => body({ searchQuery: field(str(), 'Filter organizations by name', 'notes', 'text') }),
    response: list(organization),
    columns: ['id', 'name', 'role'],
    idAliases: ['organizationId', 'orgId'],
    examples: [
      { cmd: 'svc orgs list', desc: 'Every organization, as a table on a terminal' },
      { cmd: 'svc orgs list --search-query acme -o json', desc: 'Organizations whose name matches, as JSON' },
    ],
  }),
  row('orgs', 'create', {
    effect: 'change',
    summary: 'Create an organization',
    description: NOT_SHOWN,
    request: () => body({ name: field(id(), 'Name of the new organization', 'inferred', 'name') }),
    response: anyObject,
    columns: ['id', 'name'],
    examples: [{ cmd: 'svc orgs create --name "Platform team"', desc: 'Create an organization' }],
  }),
  row('orgs', 'invite', {
    effect: 'change',
    summary: 'Invite a user to an organization',
    description: NOT_SHOWN,
    request: () => body({
      organizationId: orgId('inferred'),
      email: field(id(), 'E-mail address of the person to invite', 'inferred', 'email'),
      role: field(id(), 'Role to grant', 'inferred', 'role'),
    }),
    response: anyObject,
    columns: [],
    examples: [{ cmd: 'svc orgs invite --organization-id org_123 --email dev@example.com', desc: 'Invite a developer' }],
  }),
  row('orgs', 'delete', {
    effect: 'destroy',
    summary: 'Delete an organization',
    description: `${NOT_SHOWN} The organization is never taken from the profile or environment: name it.`,
    positional: 'organizationId',
    required: ['organizationId'],
    request: () => body({ organizationId: orgIdNamed('inferred') }),
    response: okResponse,
    columns: ['ok'],
    examples: [{ cmd: 'svc orgs delete org_123 --yes', desc: 'Delete organization org_123 without a prompt' }],
  }),
];
