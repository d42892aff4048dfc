import type { MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/not-found";

/** Every unknown path: the not-found page with a 404 status. */
export function loader() {
  throw new Response("Not Found", { status: 404 });
}

export function action() {
  throw new Response("Not Found", { status: 404 });
}

export default function CatchAll() {
  return <NotFound />;
}

export const meta: MetaFunction = () => [{ title: "Page Not Found" }];

export function ErrorBoundary() {
  return <NotFound />;
}
