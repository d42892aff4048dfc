import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AuditLog } from "~/components/admin-audit";
import { SectionError } from "~/components/route-error";
import { queryParams } from "~/web/http.server";
import { auditView, readAuditFilter } from "~/services/back-office/audit-view.server";
import { requireAdmin } from "~/web/auth.server";

/** The audit log tab: filtered by who acted, action, target and dates, paged by cursor. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  await requireAdmin(request);
  const view = await auditView(readAuditFilter(queryParams(request)));
  // A filter that is not what it should be: the tab says why, and the page answers 400.
  return data(view, { status: view.problem ? 400 : 200 });
}

export default function AdminAudit() {
  return <AuditLog view={useLoaderData<typeof loader>()} />;
}

export const meta: MetaFunction = () => [{ title: "Audit log — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <SectionError title="The audit log could not be shown" back={{ to: "/admin/audit", label: "Show the whole audit log" }} />;
}
