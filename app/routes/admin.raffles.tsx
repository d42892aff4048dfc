import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RaffleList } from "~/components/admin-raffles";
import { SectionError } from "~/components/route-error";
import { queryParams } from "~/web/http.server";
import { listRafflesForAdmin } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";

/** The raffles tab: active raffles and the last day's; rounds cancelled without entries only with `empty=1`. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  await requireAdmin(request);
  const showEmpty = queryParams(request).get("empty") === "1";
  return { showEmpty, raffles: await listRafflesForAdmin({ showEmpty }) };
}

export default function AdminRaffles() {
  const { raffles, showEmpty } = useLoaderData<typeof loader>();
  return <RaffleList raffles={raffles} showEmpty={showEmpty} />;
}

export const meta: MetaFunction = () => [{ title: "Raffles — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <SectionError title="The raffles could not be shown" back={{ to: "/admin/raffles", label: "Try the raffles again" }} />;
}
