// Vitest runs the JavaScript tests in Node 20 against the real .wasm builds.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 30000,
  },
});
