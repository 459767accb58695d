import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Each test builds its own environment: none of the caller's GATEHOUSE_* variables.
    setupFiles: ['test/support/own-env.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start real daemons and browsers; two cores cannot run many at once.
    maxWorkers: 2,
  },
});
