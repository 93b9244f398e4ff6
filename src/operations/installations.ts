import { body, field, id, idResponse, list, okResponse, orgId, record } from './fields.js';
import type { Operation } from './types.js';
import { row, type RowSpec } from './row.js';

/** The connectors: the spec and the field notes do not show their bodies. */
const CONNECTOR: Pick<RowSpec, 'effect' | 'description' | 'request' | 'response' | 'columns'> = {
  effect: 'change',
  description: 'The spec and the field notes do not show this body: send its fields with -F/--input.',
  request: () => body({ organizationId: orgId('inferred') }),
  response: idResponse,
  columns: ['id'],
};

export const installations: Operation[] = [
  row('installations', 'repositories', {
    effect: 'read',
    summary: 'List the repositories an installation can see',
    request: () => body({
      organizationId: orgId(),
      appId: field(id(), 'Installation (app) id', 'spec', 'id'),
    }),
    response: list(record({})),
    columns: ['id', 'name', 'fullName', 'url'],
    examples: [{ cmd: 'svc installations repositories --app-id 4711', desc: 'Repositories visible to installation 4711' }],
  }),
  row('installations', 'create-hostb-installation', {
    ...CONNECTOR,
    summary: 'Connect an organization to host B',
    examples: [{ cmd: 'svc installations create-hostb-installation --input installation.json', desc: 'Connect an organization to host B, body from installation.json' }],
  }),
  row('installations', 'update-hostb-installation', {
    ...CONNECTOR,
    summary: 'Update a host B installation',
    examples: [{ cmd: 'svc installations update-hostb-installation --input installation.json', desc: 'Update a host B installation, body from installation.json' }],
  }),
  row('installations', 'create-hosta-installation', {
    ...CONNECTOR,
    summary: 'Connect an organization to host A (app installation)',
    examples: [{ cmd: 'svc installations create-hosta-installation --input installation.json', desc: 'Connect an organization to host A (app installation), body from installation.json' }],
  }),
  row('installations', 'create-hostc-token-installation', {
    ...CONNECTOR,
    summary: 'Connect an organization to host C with a workspace access token',
    response: okResponse, columns: ['ok'],
    examples: [{ cmd: 'svc installations create-hostc-token-installation --input installation.json', desc: 'Connect an organization to host C with a workspace access token, body from installation.json' }],
  }),
  row('installations', 'create-hostc-oauth-installation', {
    ...CONNECTOR,
    summary: 'Connect an organization to host C with OAuth (managed service providers)',
    examples: [{ cmd: 'svc installations create-hostc-oauth-installation --input installation.json', desc: 'Connect an organization to host C with OAuth (managed service providers), body from installation.json' }],
  }),
];
