/**
 * `svc repos resolve-by-url URL` without --vcs (the row's `infer` step, src/repos/infer-vcs.ts):
 * in-process against the sandbox, whose resolve-by-url requires `vcs` like the service's.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox({ repos: 12 });

interface Listed { id: string; url: string }

async function bySource(): Promise<Map<string, Listed>> {
  const list = await sb.runJson(['repos', 'list']) as Listed[];
  const out = new Map<string, Listed>();
  // The seeded ones (a test below links more on the public hosts).
  for (const r of list) if (!out.has(sb.state.repo(r.id)!.source)) out.set(sb.state.repo(r.id)!.source, r);
  return out;
}

describe('repos resolve-by-url without --vcs', () => {
  it('resolves every provider\'s linked repository from the URL repos list prints, and as people write it', async () => {
    const repos = await bySource();
    expect([...repos.keys()]).toEqual(expect.arrayContaining(['generic', 'hosta', 'hostb', 'hostc']));
    for (const source of ['hosta', 'hostb', 'hostc', 'generic']) {
      const r = repos.get(source)!;
      const variants = [r.url, r.url.replace(/^https?:\/\/([^/]+)/, (_m, h: string) => `http://${h.toUpperCase()}`).replace(/(\.git)?$/, '.git/')];
      for (const url of variants) {
        const out = await sb.run(['repos', 'resolve-by-url', url, '-o', 'json']);
        expect(out.code, `${url}: ${out.stderr}`).toBe(0);
        expect(JSON.parse(out.stdout).repositoryId).toBe(r.id);
        // The request carried the provider svc chose (the sandbox answers it back).
        expect(JSON.parse(out.stdout).vcs).toBe(source);
        expect(out.stderr).toContain(`vcs ${source} (the linked repository ${r.id} has this URL)`);
      }
    }
  });

  it('takes the provider of a public host without listing, for each public host', async () => {
    const linked: Array<[string, string, string]> = [];
    for (const [vcs, url] of [['hosta', 'https://github.com/acme-infer/api'], ['hostb', 'https://gitlab.com/acme-infer/web'], ['hostc', 'https://bitbucket.org/acme-infer/jobs']]) {
      const add = await sb.run([`repos`, `add-${vcs}`, '-F', `repos=[{"repositoryUrl":"${url}"}]`, '-o', 'json']);
      expect(add.code, add.stderr).toBe(0);
      linked.push([vcs, url, (JSON.parse(add.stdout) as Array<{ id: string }>)[0].id]);
    }
    for (const [vcs, url, id] of linked) {
      const written = url.replace('https://', 'http://').replace(/\/\/([a-z.]+)/, (_m, h: string) => `//${h.toUpperCase()}`) + '.git';
      const out = await sb.run(['repos', 'resolve-by-url', written, '-o', 'json']);
      expect(out.code, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({ repositoryId: id, vcs });
      expect(out.stderr).toMatch(new RegExp(`vcs ${vcs} \\([a-z.]+ is ${vcs}'s public host\\)`));
    }
    // --dry-run sends nothing, and still shows the provider it would send.
    const dry = await sb.run(['repos', 'resolve-by-url', 'https://github.com/acme-infer/api', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).body).toMatchObject({ repositoryUrl: 'https://github.com/acme-infer/api', vcs: 'hosta' });
  });

  it('a URL no linked repository has: exit 4 naming the URL and the closest linked repositories', async () => {
    const repos = await bySource();
    const near = repos.get('hostb')!;
    const unknown = near.url.replace(/\/([^/]+)$/, '/$1-gone');
    const out = await sb.run(['repos', 'resolve-by-url', unknown]);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain(`${unknown}: no linked repository has this URL`);
    expect(out.stderr).toMatch(/closest linked: .*\(repo_/);
    expect(out.stderr).toContain(`(${near.id})`);
    expect(out.stdout).toBe('');
    // On a public host the provider is known, the service answers 404, and the message is the same kind.
    const pub = await sb.run(['repos', 'resolve-by-url', 'https://github.com/nobody-here/nothing']);
    expect(pub.code).toBe(4);
    expect(pub.stderr).toContain('https://github.com/nobody-here/nothing: no linked repository has this URL (hosta)');
    expect(pub.stderr).toContain('closest linked: ');
  });

  it('--vcs given is sent as given; the CI\'s own server gives its provider', async () => {
    const r = (await bySource()).get('hosta')!;
    const given = await sb.run(['repos', 'resolve-by-url', r.url, '--vcs', 'hostb']);
    expect(given.code).toBe(4);  // sent as given: no host B repository has this URL
    expect(given.stderr).not.toContain('vcs hostb (');
    // GitHub Actions on an Enterprise Server: a URL on GITHUB_SERVER_URL is host A's.
    const host = new URL(r.url).origin;
    const env = { GITHUB_ACTIONS: 'true', GITHUB_SERVER_URL: host, GITHUB_REPOSITORY: 'acme/other', GITHUB_SHA: 'a'.repeat(40) };
    const dry = await sb.run(['repos', 'resolve-by-url', r.url, '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).body.vcs).toBe('hosta');
    expect(dry.stderr).toContain("is the server of GitHub Actions");
    // Without the CI and with --dry-run, nothing is listed: the body goes without vcs, with a warning.
    const offline = await sb.run(['repos', 'resolve-by-url', r.url, '--dry-run']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(JSON.parse(offline.stdout).body.vcs).toBeUndefined();
    expect(offline.stderr).toContain('--vcs not given');
  });

  it('a standalone repository: exit 4 naming its id', async () => {
    const made = await sb.run(['repos', 'create-standalone', '-f', 'name=scratch-infer', '-o', 'json']);
    expect(made.code, made.stderr).toBe(0);
    const id = JSON.parse(made.stdout).id as string;
    const url = sb.state.repo(id)!.url;
    const out = await sb.run(['repos', 'resolve-by-url', url]);
    expect(out.code).toBe(4);
    expect(out.stderr).toContain(`${id} has this URL but is a standalone repository`);
  });

  it('the help says how vcs is chosen', async () => {
    const out = await sb.run(['repos', 'resolve-by-url', '--help']);
    expect(out.stdout).toContain('vcs: without --vcs, svc works it out');
    expect(out.stdout).toContain('svc repos resolve-by-url https://hosta.example/team/api\n');
  });
});
