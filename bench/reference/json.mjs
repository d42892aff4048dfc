// The reference server for GET /api/raffles (issue 22, bench/reference/README.md): Express
// sending the same JSON bytes from memory, compressed as the app compresses them.
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
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
  const body = readFileSync(process.env.REFERENCE_JSON_FILE);
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.get("/api/raffles", (_req, res) => {
    res.type("application/json").send(body);
  });
  const server = app.listen(Number(process.env.PORT), "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
