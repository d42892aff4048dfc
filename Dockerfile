# Production image: the Remix build served by server.ts on Node 20.
# Deploys set DATABASE_URL (the embedded PostgreSQL is for local machines only) and the
# Stripe keys: DATABASE_URL without them and without DEMO_MODE=true refuses to start (ADR 018).
FROM node:20-bookworm-slim AS base
ENV NODE_ENV=production
WORKDIR /app

FROM base AS deps
COPY package.json package-lock.json ./
COPY prisma ./prisma
COPY prisma.config.ts ./
# The install applies patches/ (ADR 044).
COPY patches ./patches
# `npm install` rather than `npm ci`: see .ci/run (the lockfile lists only this platform's optional builds).
RUN npm install --include=dev --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build && npm prune --omit=dev

FROM base
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/package.json ./package.json
USER node
EXPOSE 3000
# node as PID 1 receives SIGTERM/SIGINT directly and shuts down gracefully.
CMD ["node", "build/server.js"]
