import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The page is built into the Python package, where `tienlen serve` finds it
// (src/tienlen/server/page.py). `npm run dev` proxies the API and the WebSockets to a server
// on 127.0.0.1:8000.
const outDir = fileURLToPath(new URL("../src/tienlen/server/static", import.meta.url));

export default defineConfig({
  plugins: [svelte()],
  build: { outDir, emptyOutDir: true, assetsInlineLimit: 0 },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: { include: ["tests/**/*.test.ts"], environment: "node" },
});
