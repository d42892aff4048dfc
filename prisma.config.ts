import { defineConfig } from "prisma/config";

// Migrations are applied by our own runner (app/models/system/migrations.server.ts) and by
// `prisma migrate deploy` on deploys that can fetch Prisma's schema engine.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "" },
});
