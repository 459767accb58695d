import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static bundle served both by Electron (file://) and by the headless
// dashboard (loopback HTTP), so asset paths are relative.
export default defineConfig(({ command }) => {
  // A build started under the test runner inherits NODE_ENV=test, and Vite would then bundle
  // React's development build (1.7x the size, other behaviour). What ships is always this one.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: 'renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: '../dist/renderer',
      emptyOutDir: true,
      sourcemap: false,
      // The first load must stay under 300 KB of JavaScript gzipped; warn well before.
      chunkSizeWarningLimit: 450,
      rollupOptions: {
        // zod's sources carry `@__PURE__` notes in comments Rollup cannot place, and Rollup
        // said so on every build. Only that warning, only for zod, is dropped.
        onwarn(warning, warn) {
          if (
            warning.code === 'INVALID_ANNOTATION' &&
            /[\\/]node_modules[\\/]zod[\\/]/.test(warning.id ?? '')
          )
            return;
          warn(warning);
        },
      },
    },
  };
});
