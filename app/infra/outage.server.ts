/**
 * A database that cannot be reached is an outage, not a bug: the answer is a 503 with
 * Retry-After (JSON for the API, the error page for pages), never a 500.
 */

/** How long a client is asked to wait before it tries again during an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;

export const OUTAGE_MESSAGE = "The site is briefly unavailable: our database is not answering. Nothing was changed; please try again in a minute.";

/** Prisma's codes for a server it cannot reach, a connection lost or timed out, a full pool or server. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** The driver adapter's kinds for the same. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Sockets refused or cut; PostgreSQL's connection errors (08), a server shutting down (57P), too many connections. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN"]);
const SQLSTATE = /^(08...|57P0.|53300)$/;
/** node-postgres's own errors, which carry no code. */
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|Client has encountered a connection error/i;

/** Whether `error` (or what caused it) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const item = pending.pop();
    if (!item || typeof item !== "object" || seen.has(item)) continue;
    seen.add(item);
    const e = item as { name?: unknown; code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: unknown };
    if (e.name === "PrismaClientInitializationError") return true;
    if (typeof e.code === "string" && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
    if (typeof e.kind === "string" && ADAPTER_KINDS.has(e.kind)) return true;
    if (typeof e.originalCode === "string" && SQLSTATE.test(e.originalCode)) return true;
    if (typeof e.message === "string" && MESSAGES.test(e.message)) return true;
    pending.push(e.cause, (e.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
}

/** The answer during an outage, thrown from a loader or action: as is for the API, the error boundary's status for a page. */
export function outageResponse(): Response {
  const headers = { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  return Response.json({ message: OUTAGE_MESSAGE }, { status: 503, statusText: "Service Unavailable", headers });
}
