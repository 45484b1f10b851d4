// The Activity's page, built into the bot's package (bot/web/static/activity, never committed): the bot
// serves it at /activity/, Discord's proxy at the Activity's root, so every path in it is relative.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "../bot/web/static/activity",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2020",
    reportCompressedSize: false,
  },
});
