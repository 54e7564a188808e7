// Vitest runs the JavaScript tests in Node 20 against the real .wasm builds.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 30000,
    // Every core (Vitest's default leaves one free: one worker on this 2-core
    // machine; two workers take the suite from 50 s to 28 s).
    maxWorkers: availableParallelism(),
  },
});
