import { useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useToldBalances } from "./entry-answers";
import type { loader as rootLoader } from "~/root";

/** What the root loader sends every page, typed from the loader itself (no hand-kept copy). */
export type RootData = NonNullable<ReturnType<typeof useOptionalRootData>>;

/** The signed-in player as the root loader sends it (the spec's user record). */
export type RootUser = NonNullable<RootData["user"]>;

/**
 * The root loader's data, or undefined where it did not run: in the root ErrorBoundary
 * when the root loader itself threw.
 */
export function useOptionalRootData() {
  return useRouteLoaderData<typeof rootLoader>("root");
}

/** The root loader's data, in any page: every page renders inside the root route. */
export function useRootData(): RootData {
  const data = useOptionalRootData();
  if (!data) throw new Error("useRootData was called outside the root route (its loader has not run)");
  return data;
}

/**
 * The signed-in player, or null for a visitor. Their coins are the latest a card's entry
 * answered, when that is newer than the root's data (entry-answers.tsx).
 */
export function useOptionalUser(): RootUser | null {
  const root = useOptionalRootData();
  const told = useToldBalances(root);
  const user = root?.user ?? null;
  return useMemo(() => (user && told ? { ...user, ...told } : user), [user, told]);
}

/**
 * The signed-in player, in pages whose loader called requireUser (so the root loader saw the
 * same session). Throws when there is none: a page that reaches here without a player is a bug.
 */
export function useUser(): RootUser {
  const user = useOptionalUser();
  if (!user) throw new Error("useUser was called on a page without a signed-in player; use useOptionalUser there");
  return user;
}
