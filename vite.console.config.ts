/**
 * The operator console's build (admin.html, admin/): React with antd, into the app's output folder
 * (vite.config.ts starts it after the app's build), its files under assets/console/.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The app's build already copied public/.
  publicDir: false,
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsDir: 'assets/console',
    // antd's components share one chunk of about 700 KB (220 KB gzipped), loaded once per visit.
    chunkSizeWarningLimit: 800,
    rolldownOptions: { input: { admin: 'admin.html' } },
  },
});
