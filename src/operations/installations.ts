import { body, field, id, idResponse, list, okResponse, orgId, record } from './fields.js';
import type { Operation } from './types.js';

const P = '/api/v1/installations/';
const NOT_SHOWN = 'The spec and the field notes do not show this body: send its fields with -F/--input.';

function create(name: string, summary: string, ok = false): Operation {
  return {
    group: 'installations', name, path: P + name, source: 'spec', safe: false, summary, description: NOT_SHOWN,
    request: body({ organizationId: orgId('inferred') }),
    response: ok ? okResponse : idResponse,
    columns: [ok ? 'ok' : 'id'],
    examples: [{ cmd: `svc installations ${name} --input installation.json`, desc: `${summary}, body from installation.json` }],
  };
}

export const installations: Operation[] = [
  {
    group: 'installations', name: 'repositories', path: P + 'repositories', source: 'spec', safe: true,
    summary: 'List the repositories an installation can see',
    request: body({
      organizationId: orgId(),
      appId: field(id(), 'Installation (app) id', 'spec', 'id'),
    }),
    response: list(record({})),
    columns: ['id', 'name', 'fullName', 'url'],
    examples: [{ cmd: 'svc installations repositories --app-id 4711', desc: 'Repositories visible to installation 4711' }],
  },
  create('create-hostb-installation', 'Connect an organization to host B'),
  create('update-hostb-installation', 'Update a host B installation'),
  create('create-hosta-installation', 'Connect an organization to host A (app installation)'),
  create('create-hostc-token-installation', 'Connect an organization to host C with a workspace access token', true),
  create('create-hostc-oauth-installation', 'Connect an organization to host C with OAuth (managed service providers)'),
];
