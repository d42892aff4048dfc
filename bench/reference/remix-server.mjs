// The reference server for the home page (bench/reference/README.md): the stock
// `@remix-run/express` request handler and `compression`, serving the reference Remix app
// (bench/reference/remix/, built into build/reference/) with the app's number of workers.
import cluster from "node:cluster";
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const workers = Number(process.env.WEB_CONCURRENCY ?? 1);

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const buildDir = path.resolve(import.meta.dirname, "../../build/reference");
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.use("/assets", express.static(path.join(buildDir, "client/assets"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(buildDir, "client"), { maxAge: "1h" }));
  app.all("*", createRequestHandler({ build: await import(path.join(buildDir, "server/index.js")) }));
  const server = app.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
