import { randomInt } from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser, sessionTokenHash } from "~/web/auth.server";
import { getEnv } from "~/infra/env.server";
import { jsonError } from "~/web/http.server";
import { eventsOpen, eventsSince, subscribe, TooManyStreams, type GameEvent } from "~/infra/events.server";

/** A refused stream's client tries again after this long (the page polls meanwhile). */
const RETRY_AFTER_SECONDS = 30;
/** The pause the browser makes before it opens a dropped stream again. */
const RECONNECT_MS = 5_000;

const encoder = new TextEncoder();
const NOTICE = encoder.encode("event: notice\ndata: {}\n\n");
/** Each event's bytes, made once for all the streams that send it. */
const wire = new WeakMap<GameEvent, Uint8Array>();

function bytesOf(event: GameEvent): Uint8Array {
  let bytes = wire.get(event);
  if (!bytes) wire.set(event, (bytes = encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)));
  return bytes;
}

/**
 * How long this stream may live: EVENT_STREAM_MAX_SECONDS less up to a tenth at random, so
 * that streams opened together (after a deploy) do not all end together.
 */
function maxAgeMs(): number {
  const ms = getEnv().EVENT_STREAM_MAX_SECONDS * 1000;
  return Math.round(ms - randomInt(Math.max(1, Math.floor(ms / 10))));
}

/**
 * Server-Sent Events: pot changes, new rounds and draws, as they commit on any instance,
 * and "notice" (no data) when news waits for this stream's player (an outcome, a withdrawal's
 * new state): the page reloads its data, and its root loader takes the news.
 * A process shutting down ends its streams and starts none (the page polls meanwhile).
 * A session and an account hold at most a few streams, an address a small share of the
 * process's EVENT_STREAMS_MAX: more are 429 with Retry-After. A stream ends after EVENT_STREAM_MAX_SECONDS, telling the browser to
 * come back after a pause of 5 to 15 s, so that no stream (a forgotten tab's, a signed-out
 * session's, a client gone without a word) is held for ever.
 * `?since=` (ms, the server's clock when the page's data was read) first sends what the page
 * missed before its stream opened, or a notice when that is not known (ADR 104).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sinceParam = new URL(request.url).searchParams.get("since");
  if (sinceParam !== null && !/^\d{1,15}$/.test(sinceParam)) {
    return jsonError(400, "since must be a time in milliseconds since 1970.", { headers: { "Cache-Control": "no-store" } });
  }
  // Checked in the same turn as `subscribe` below takes its place.
  if (!eventsOpen()) return new Response("Shutting down", { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } });
  let write = (_bytes: Uint8Array) => {};
  const send = (text: string) => write(encoder.encode(text));
  // The events heard in one turn (the pots flushed together) go out as one write.
  let queued: Uint8Array[] = [];
  const sendEvent = (bytes: Uint8Array) => {
    queued.push(bytes);
    if (queued.length > 1) return;
    queueMicrotask(() => {
      const chunks = queued;
      queued = [];
      write(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
  };
  // Other players' news is theirs: neither the event nor whom it concerns is sent.
  const deliver = (event: GameEvent) => {
    if (event.type === "notice") {
      if (event.userIds.includes(user.id)) sendEvent(NOTICE);
      return;
    }
    sendEvent(bytesOf(event));
  };
  let cleanup = () => {};
  let unsubscribe: () => void;
  try {
    unsubscribe = await subscribe(deliver, () => cleanup(), {
      session: await sessionTokenHash(request),
      account: user.id,
      address: context.clientIp,
      maxStreams: getEnv().EVENT_STREAMS_MAX,
    });
  } catch (error) {
    if (!(error instanceof TooManyStreams)) throw error;
    return Response.json({ message: error.message }, { status: 429, headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } });
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      write = (bytes: Uint8Array) => {
        try {
          controller.enqueue(bytes);
        } catch {
          cleanup();
        }
      };
      // A comment every 15 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), 15_000);
      // Its session is checked again when the browser opens the next one.
      const ending = setTimeout(() => {
        send(`retry: ${RECONNECT_MS + randomInt(2 * RECONNECT_MS)}\n\n`);
        cleanup();
      }, maxAgeMs());
      cleanup = () => {
        clearInterval(heartbeat);
        clearTimeout(ending);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      // A client gone away gives its place back at once.
      for (const gone of [request.signal, context.clientGone]) {
        if (gone?.aborted) cleanup();
        else gone?.addEventListener("abort", () => cleanup(), { once: true });
      }
      send(`retry: ${RECONNECT_MS}\n\n`);
      // After the subscription, so that nothing falls between: what goes out twice, a page takes once.
      if (sinceParam !== null) {
        const missed = eventsSince(Number(sinceParam));
        if (missed) for (const event of missed) deliver(event);
        else sendEvent(NOTICE);
      }
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
