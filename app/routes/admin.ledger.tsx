import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Cell, Table } from "~/components/admin-tabs";
import { SectionError } from "~/components/route-error";
import { reconciliation } from "~/services/back-office/admin.server";
import { requireAdmin } from "~/web/auth.server";
import { formatDecimalDollars as money } from "~/shared/money";

/** The ledger tab: every account kind's total; the sum of all must be zero. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Loaders run in parallel: the layout's guard does not cover this one.
  await requireAdmin(request);
  return reconciliation();
}

export default function AdminLedger() {
  const ledger = useLoaderData<typeof loader>();
  return (
    <section aria-label="Ledger reconciliation">
      <Table label="Account totals" head={["Account", "Total"]}>
        {Object.entries(ledger.totals).map(([kind, total]) => (
          <tr key={kind}>
            <Cell label="Account">{kind}</Cell>
            <Cell label="Total">{money(total)}</Cell>
          </tr>
        ))}
      </Table>
      <p
        className={`mt-3 font-bold ${ledger.balanced ? "text-emerald-700 dark:text-emerald-400" : "rounded bg-red-700 p-2 text-white"}`}
        data-testid="ledger-sum"
      >
        Sum of all accounts: {money(ledger.sum)} {ledger.balanced ? "(balanced)" : "— MISMATCH"}
      </p>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Ledger — Admin — Raffle Rush" }];

export function ErrorBoundary() {
  return <SectionError title="The ledger could not be shown" back={{ to: "/admin/ledger", label: "Try the ledger again" }} />;
}
