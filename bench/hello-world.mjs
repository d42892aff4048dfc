// The baseline for the read benchmarks: a bare Express "hello world" (bench/infra.ts starts it).
import express from "express";

const app = express();
app.get("/", (_req, res) => {
  res.send("Hello World!");
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
