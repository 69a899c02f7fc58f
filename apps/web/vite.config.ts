import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://localhost:8080';
const apiPaths = ['/api', '/ops/api', '/my', '/sms', '/buy-orders', '/transfer', '/dev', '/healthz', '/docs'];

// In `npm run dev` Vite serves the app on 5173 and forwards API paths to the API server.
// `/my` is also an app route prefix (/myinfo), so only the exact API paths are forwarded.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      apiPaths.map((p) => [p === '/my' ? '^/my(/|$|\\?)' : p, { target: apiTarget, changeOrigin: false }]),
    ),
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
});
