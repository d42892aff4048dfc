import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { requireAdmin } from "~/services/auth.server";

/** The back office. Its tabs (payouts, users, raffles) come with the admin issue. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return null;
}

export default function Admin() {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">Admin dashboard</h1>
      <p className="mt-4">The payouts, users and raffles tabs are being built.</p>
      <Link to="/" className="mt-6 inline-block underline">Back to Site</Link>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin — Raffle Rush" }];
