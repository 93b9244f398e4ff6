import { describe, expect, it } from 'vitest';
import { closestByUrl, matchByUrl, publicHostVcs, webUrl } from '../../../src/ci/repo-url.js';

describe('repository URLs', () => {
  it('one web URL for the ways people write it', () => {
    for (const u of ['https://github.com/team/api', 'HTTPS://GitHub.com/team/api.git/', 'http://github.com/team/api/', 'git@github.com:team/api.git', 'ssh://git@github.com/team/api.git', 'https://x-access-token:secret@github.com/team/api.git']) {
      expect(webUrl(u), u).toBe('https://github.com/team/api');
    }
    expect(webUrl('http://git.corp.example:8080/team/api.git')).toBe('http://git.corp.example:8080/team/api');
    expect(webUrl('ssh://git@git.corp.example:2222/team/api.git')).toBe('https://git.corp.example/team/api');
    for (const bad of ['', 'not a url', 'repo_123', 'ftp://x/y', 'localhost:8080']) expect(webUrl(bad), bad).toBeUndefined();
  });

  it('the public hosts are the neutral providers', () => {
    expect(publicHostVcs('https://github.com/a/b')).toBe('hosta');
    expect(publicHostVcs('git@gitlab.com:a/b.git')).toBe('hostb');
    expect(publicHostVcs('https://www.bitbucket.org/a/b')).toBe('hostc');
    expect(publicHostVcs('https://hosta.example/a/b')).toBeUndefined();
  });

  const repos = [
    { id: 'r1', urls: ['https://hosta.example/team/api'] },
    { id: 'r2', urls: ['https://git.example.com/team/web.git', 'https://git.example.com/team/web'] },
    { id: 'r3', urls: ['https://hostb.example/Group/Tool'] },
  ];

  it('matches after normalising scheme, host case, .git and trailing slashes; path case only when nothing matches exactly', () => {
    expect(matchByUrl('http://HOSTA.example/team/api.git/', repos).map((r) => r.id)).toEqual(['r1']);
    expect(matchByUrl('git@git.example.com:team/web.git', repos).map((r) => r.id)).toEqual(['r2']);
    expect(matchByUrl('https://hostb.example/group/tool', repos).map((r) => r.id)).toEqual(['r3']);
    expect(matchByUrl('https://hosta.example/team/apx', repos)).toEqual([]);
    expect(matchByUrl('https://other.example/team/api', repos)).toEqual([]);
  });

  it('the closest URLs first', () => {
    expect(closestByUrl('https://hosta.example/team/apx', repos, 2).map((r) => r.id)).toEqual(['r1', 'r3']);
    expect(closestByUrl('https://git.example.com/team/wbe', repos, 1).map((r) => r.id)).toEqual(['r2']);
  });
});
