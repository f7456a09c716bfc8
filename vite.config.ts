import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import packageJson from './package.json' with { type: 'json' };

const apiServer = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // The installable app (issue 33, decision 253): the manifest, and our own service worker
    // (src/client/sw.ts), which shows pushes; it precaches the hashed static files only, never
    // index.html or the API. main.tsx registers it.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/client',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: {
        name: 'Baton',
        short_name: 'Baton',
        description: 'On-call rotations and baton handoffs for your team.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        // The light theme's; index.html's theme-color meta tags follow light and dark.
        theme_color: '#ffffff',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        globPatterns: ['assets/**/*.{js,css}', 'icons/*.png'],
        globIgnores: ['**/index.html'],
      },
      devOptions: { enabled: false },
    }),
  ],
  // The version the footer shows (decision 225), package.json's, as the server's.
  define: { __BATON_VERSION__: JSON.stringify(packageJson.version) },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src/client', import.meta.url)),
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only what every screen needs goes in a shared vendor chunk (cached across
          // deploys); libraries used by some pages stay in those pages' lazy chunks.
          groups: [
            {
              name: 'react',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': apiServer,
      '/healthz': apiServer,
      '/readyz': apiServer,
    },
  },
});
