import { mkdirSync, writeFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { TIER_ICONS } from "../app/components/tiers";

/**
 * `npx tsx scripts/tier-icons.ts`: draws each tier's lucide icon (app/components/tiers.tsx)
 * into public/tier-icons/<tier>.svg, the files the `t-<tier>` classes mask chips with.
 * app/components/tiers.test.tsx fails when a file no longer matches its tier's icon.
 */
export function tierIconSvg(tier: string): string {
  return `${renderToStaticMarkup(createElement(TIER_ICONS[tier]!))}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync("public/tier-icons", { recursive: true });
  for (const tier of Object.keys(TIER_ICONS)) writeFileSync(`public/tier-icons/${tier}.svg`, tierIconSvg(tier));
}
