import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static bundle served both by Electron (file://) and by the headless
// dashboard (loopback HTTP), so asset paths are relative.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
