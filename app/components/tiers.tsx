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
 * class of app/tailwind.css: edge, light and deep). Raffle cards, tier chips and the VIP page
 * read it here, so a tier looks the same wherever it is named.
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
};

/** A raffle's tier: regular tiers by their spec names (BEGINNER, STEADY...), quick ones by theirs. */
export function raffleTier(tier: string, kind: "regular" | "quick"): TierIdentity {
  const name = kind === "quick" ? tier.toUpperCase() : (TIER_LABELS[tier] ?? tier.toUpperCase());
  return { id: tier, name, Icon: ICONS[tier] ?? Ticket, className: tierClass(tier) };
}

export function vipTier(tier: VipTierName): TierIdentity {
  return { id: tier, name: tier.toUpperCase(), Icon: ICONS[tier] ?? Medal, className: `t-${tier}` };
}

/**
 * The tiers' icons, once per page, for the cards to point at (`<use>`): a page lists dozens
 * of cards, and an icon drawn in each would add half a kilobyte of HTML per card.
 */
export function TierSprite({ tiers }: { tiers: readonly string[] }) {
  return (
    <svg aria-hidden="true" className="absolute size-0 overflow-hidden">
      {tiers.map((tier) => {
        const Icon = ICONS[tier] ?? Ticket;
        return (
          <symbol key={tier} id={`tier-${tier}`} viewBox="0 0 24 24">
            <Icon />
          </symbol>
        );
      })}
    </svg>
  );
}

/** A tier's icon. `shared`: drawn from the page's TierSprite. */
export function TierIcon({ tier, shared = false, className = "size-3.5" }: { tier: TierIdentity; shared?: boolean; className?: string }) {
  return shared ? (
    <svg aria-hidden="true" className={className}>
      <use href={`#tier-${tier.id}`} />
    </svg>
  ) : (
    <tier.Icon aria-hidden="true" className={className} />
  );
}

/** A tier's chip: icon and name in the tier's colours. */
export function TierChip({ tier, shared = false }: { tier: TierIdentity; shared?: boolean }) {
  return (
    <span className={`rc-chip ${tier.className}`}>
      <TierIcon tier={tier} shared={shared} />
      {tier.name}
    </span>
  );
}
