import type { MetaFunction } from "@remix-run/node";
import { Landing } from "~/components/landing";

export default function Index() {
  return <Landing />;
}

export const meta: MetaFunction = () => [{ title: "Raffle Rush — micro-stakes raffles, half the pot to the winner" }];
