import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { eventsOpen, subscribe } from "~/services/events.server";

/**
 * Server-Sent Events: pot changes, new rounds and draws, as they commit on any instance.
 * A process shutting down ends its streams and starts none (the page polls meanwhile).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  // Checked in the same turn as `subscribe` below starts (the stream's start runs at once).
  if (!eventsOpen()) return new Response("Shutting down", { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store" } });
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const unsubscribe = await subscribe(
        (event) => send(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
        () => cleanup(),
      );
      // A comment every 15 s keeps proxies from closing an idle stream.
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), 15_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      request.signal.addEventListener("abort", () => cleanup(), { once: true });
      send("retry: 5000\n\n");
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
