import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tierIconSvg, UI_ICONS, uiIconSvg } from "../../scripts/tier-icons";
import { QUICK_TIERS, REGULAR_TIERS } from "~/shared/raffle-display";
import { VIP_TIERS } from "~/shared/vip";
import { raffleTier, TIER_ICONS, vipTier } from "./tiers";

describe("each tier's identity", () => {
  it("has a name, a colour class and an icon for every raffle and VIP tier", () => {
    for (const tier of [...REGULAR_TIERS, ...QUICK_TIERS]) {
      const identity = raffleTier(tier, QUICK_TIERS.includes(tier as never) ? "quick" : "regular");
      expect(identity.className).toBe(`t-${tier}`);
      expect(identity.name).toMatch(/^[A-Z ]+$/);
    }
    expect(raffleTier("high", "regular").name).toBe("POPULAR");
    for (const tier of Object.keys(VIP_TIERS) as (keyof typeof VIP_TIERS)[]) expect(vipTier(tier).className).toBe(`t-${tier}`);
    expect(Object.keys(TIER_ICONS).sort()).toEqual([...REGULAR_TIERS, ...QUICK_TIERS, ...Object.keys(VIP_TIERS), "neutral"].sort());
  });

  it("draws the icons the CSS masks chips with (run npx tsx scripts/tier-icons.ts after a change)", () => {
    const css = readFileSync("app/tailwind.css", "utf8");
    for (const tier of Object.keys(TIER_ICONS)) {
      expect(readFileSync(`public/tier-icons/${tier}.svg`, "utf8"), tier).toBe(tierIconSvg(tier));
      expect(css, tier).toContain(`--t-icon: url("/tier-icons/${tier}.svg")`);
    }
  });

  it("draws the interface's CSS icons (public/icons) from lucide, each with its class", () => {
    const css = readFileSync("app/tailwind.css", "utf8");
    for (const name of Object.keys(UI_ICONS)) {
      expect(readFileSync(`public/icons/${name}.svg`, "utf8"), name).toBe(uiIconSvg(name));
      expect(css, name).toContain(`--ic: url("/icons/${name}.svg")`);
    }
  });
});
