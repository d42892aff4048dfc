import { mkdirSync, writeFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ChevronLeft, ChevronRight, Crown, ShieldCheck, Star, Trophy, Zap, type LucideIcon } from "lucide-react";
import { TIER_ICONS } from "../app/components/tiers";

/**
 * `npx tsx scripts/tier-icons.ts`: draws each tier's lucide icon (app/components/tiers.tsx)
 * into public/tier-icons/<tier>.svg, the files the `t-<tier>` classes mask chips with.
 * app/components/tiers.test.tsx fails when a file no longer matches its tier's icon.
 */
export function tierIconSvg(tier: string): string {
  return `${renderToStaticMarkup(createElement(TIER_ICONS[tier]!))}\n`;
}

/**
 * The interface's small icons drawn the same way, into public/icons/<name>.svg for the `.ic-<name>`
 * classes: on the home page, whose script budget has no room for more icon modules.
 */
export const UI_ICONS: Record<string, LucideIcon> = {
  prev: ChevronLeft,
  next: ChevronRight,
  verified: ShieldCheck,
  crown: Crown,
  star: Star,
  bolt: Zap,
  trophy: Trophy,
};

export function uiIconSvg(name: string): string {
  return `${renderToStaticMarkup(createElement(UI_ICONS[name]!))}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync("public/tier-icons", { recursive: true });
  for (const tier of Object.keys(TIER_ICONS)) writeFileSync(`public/tier-icons/${tier}.svg`, tierIconSvg(tier));
  mkdirSync("public/icons", { recursive: true });
  for (const name of Object.keys(UI_ICONS)) writeFileSync(`public/icons/${name}.svg`, uiIconSvg(name));
}
