import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Threads start faster than forked processes, and without per-file isolation each worker loads
    // src/ once instead of once per test file. Safe here: no test mocks modules or stubs globals,
    // and every test builds its own host, sandbox or server.
    pool: 'threads',
    isolate: false,
    // vitest's default is one worker less than the CPUs: a single worker on CI's 2 cores, running
    // every file in turn. Much of the suite waits (spawned bins and shells, servers, timeouts), so
    // two workers keep both cores busy (three made the slowest script tests time out under load).
    maxWorkers: 2,
  },
});
