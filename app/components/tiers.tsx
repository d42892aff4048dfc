import {
  AudioWaveform,
  Award,
  CloudLightning,
  Crown,
  Flame,
  Gem,
  Medal,
  Orbit,
  Rocket,
  Sparkles,
  Sprout,
  Star,
  Target,
  Ticket,
  Trophy,
  Zap,
  type LucideIcon,
} from "lucide-react";
import { tierClass, TIER_LABELS } from "~/shared/raffle-display";
import type { VipTierName } from "~/shared/vip";

/**
 * Each tier's identity (docs/design.md): its name, its icon and its colours (the `t-<tier>`
 * class of app/tailwind.css: edge, light, deep and the icon). Raffle cards and home's tier
 * headings name a tier through the same class and TIER_LABELS; the VIP page and
 * scripts/tier-icons.ts read it here.
 */
export type TierIdentity = { id: string; name: string; Icon: LucideIcon; className: string };

const ICONS: Record<string, LucideIcon> = {
  micro: Sprout,
  low: Ticket,
  medium: Target,
  high: Flame,
  premium: Gem,
  elite: Crown,
  lightning: Zap,
  bolt: CloudLightning,
  flash: Sparkles,
  sonic: AudioWaveform,
  hyper: Rocket,
  ultra: Orbit,
  bronze: Medal,
  silver: Award,
  gold: Trophy,
  platinum: Star,
  diamond: Gem,
  neutral: Ticket,
};

/** A raffle's tier: regular tiers by their spec names (BEGINNER, STEADY...), quick ones by theirs. */
export function raffleTier(tier: string, kind: "regular" | "quick"): TierIdentity {
  const name = kind === "quick" ? tier.toUpperCase() : (TIER_LABELS[tier] ?? tier.toUpperCase());
  return { id: tier, name, Icon: ICONS[tier] ?? Ticket, className: tierClass(tier) };
}

export function vipTier(tier: VipTierName): TierIdentity {
  return { id: tier, name: tier.toUpperCase(), Icon: ICONS[tier] ?? Medal, className: `t-${tier}` };
}

/** Every tier's icon, by the tier's id: scripts/tier-icons.ts draws them into public/tier-icons/. */
export const TIER_ICONS: Readonly<Record<string, LucideIcon>> = ICONS;

/**
 * A tier's chip: its name in its colours, its icon before it. The icon is a CSS mask of
 * /tier-icons/<tier>.svg (the `t-<tier>` class), not an inline SVG: a page of two dozen cards
 * adds no markup and no JavaScript for it, and it shows without JavaScript.
 */
export function TierChip({ tier }: { tier: TierIdentity }) {
  return <span className={`rc-chip ${tier.className}`}>{tier.name}</span>;
}
