import { defineConfig } from 'vite';

// Served by `skald serve` under /play/; the API stays at /v1 on the same origin.
export default defineConfig({
  base: '/play/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: true,
  },
  server: {
    // `npx vite` for development, against `skald serve` on port 8000.
    proxy: { '/v1': 'http://127.0.0.1:8000' },
  },
});
