import { test } from "@playwright/test";
import { newDataDir, removeDataDirs, startServer, stopServer, waitUntilReady, type ServerProcess } from "../../support/server-process";
import { scaled } from "../../support/timeouts";

/** Short, but not so short that 45 sign-ins at once on a loaded machine are cut off too. */
export const REQUEST_TIMEOUT_SECONDS = 5;
export const STREAM_MAX_SECONDS = 2;

export type Send = { method?: string; cookie?: string; form?: Record<string, string>; json?: unknown; body?: string; type?: string };

/**
 * A production build (`build/server.js`, demo mode, its own embedded database, no scheduler)
 * started before a file's attacks and stopped after them, with the request timeout and the
 * streams' maximum age shortened so that each attack runs in seconds.
 */
export function attackTarget() {
  const target = { server: undefined as unknown as ServerProcess, dataDir: "", base: "" };
  // Generous bounds for a loaded machine: each attack takes a few seconds when it is not.
  test.describe.configure({ mode: "serial", timeout: scaled(60_000) });
  test.beforeAll(async () => {
    test.setTimeout(scaled(120_000));
    target.dataDir = newDataDir();
    target.server = await startServer(target.dataDir, {
      SCHEDULER_ENABLED: "false",
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_SECONDS),
      EVENT_STREAM_MAX_SECONDS: String(STREAM_MAX_SECONDS),
    });
    await waitUntilReady(target.server, 110_000);
    target.base = `http://localhost:${target.server.port}`;
  });
  test.afterAll(async () => {
    await stopServer(target.server);
    removeDataDirs();
  });
  /** One request as an attacker's script sends it: no cookie jar, no redirects followed. */
  const send = (path: string, { method = "GET", cookie, form, json, body, type }: Send = {}): Promise<Response> => {
    const headers: Record<string, string> = { Origin: target.base, Accept: "application/json" };
    if (cookie) headers.Cookie = cookie;
    if (form) [body, type] = [new URLSearchParams(form).toString(), "application/x-www-form-urlencoded"];
    if (json !== undefined) [body, type] = [JSON.stringify(json), "application/json"];
    if (type) headers["Content-Type"] = type;
    return fetch(`${target.base}${path}`, { method, headers, body, redirect: "manual" });
  };
  const signIn = (email: string, password: string, cookie?: string) =>
    send("/api/login", { method: "POST", cookie, form: { intent: "signin", email, password } });
  return { target, send, signIn };
}

export const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
