import { z } from "zod";

/**
 * Where the site may take players: `ALLOWED_COUNTRIES`, a comma-separated list of
 * ISO 3166-1 country codes ("GB": the whole country) and ISO 3166-2 regions ("US-NJ": only
 * that region of the country). Shared by the server (checks) and the sign-up form (choices).
 */
export type Jurisdictions = {
  /** Countries allowed everywhere. */
  countries: string[];
  /** Countries allowed only in some regions: country → its allowed regions. */
  regions: Record<string, string[]>;
};

/** ISO 3166-1 alpha-2 codes in use, plus XK (Kosovo). */
export const COUNTRY_CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ
BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS
GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ
MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV
SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
VN VU WF WS XK YE YT ZA ZM ZW`
  .trim()
  .split(/\s+/);

/** Names of the regions operators most often license separately; others show their code. */
const REGION_NAMES: Record<string, string> = {
  "US-AL": "Alabama",
  "US-AK": "Alaska",
  "US-AZ": "Arizona",
  "US-AR": "Arkansas",
  "US-CA": "California",
  "US-CO": "Colorado",
  "US-CT": "Connecticut",
  "US-DE": "Delaware",
  "US-DC": "District of Columbia",
  "US-FL": "Florida",
  "US-GA": "Georgia",
  "US-HI": "Hawaii",
  "US-ID": "Idaho",
  "US-IL": "Illinois",
  "US-IN": "Indiana",
  "US-IA": "Iowa",
  "US-KS": "Kansas",
  "US-KY": "Kentucky",
  "US-LA": "Louisiana",
  "US-ME": "Maine",
  "US-MD": "Maryland",
  "US-MA": "Massachusetts",
  "US-MI": "Michigan",
  "US-MN": "Minnesota",
  "US-MS": "Mississippi",
  "US-MO": "Missouri",
  "US-MT": "Montana",
  "US-NE": "Nebraska",
  "US-NV": "Nevada",
  "US-NH": "New Hampshire",
  "US-NJ": "New Jersey",
  "US-NM": "New Mexico",
  "US-NY": "New York",
  "US-NC": "North Carolina",
  "US-ND": "North Dakota",
  "US-OH": "Ohio",
  "US-OK": "Oklahoma",
  "US-OR": "Oregon",
  "US-PA": "Pennsylvania",
  "US-RI": "Rhode Island",
  "US-SC": "South Carolina",
  "US-SD": "South Dakota",
  "US-TN": "Tennessee",
  "US-TX": "Texas",
  "US-UT": "Utah",
  "US-VT": "Vermont",
  "US-VA": "Virginia",
  "US-WA": "Washington",
  "US-WV": "West Virginia",
  "US-WI": "Wisconsin",
  "US-WY": "Wyoming",
  "CA-AB": "Alberta",
  "CA-BC": "British Columbia",
  "CA-MB": "Manitoba",
  "CA-NB": "New Brunswick",
  "CA-NL": "Newfoundland and Labrador",
  "CA-NS": "Nova Scotia",
  "CA-NT": "Northwest Territories",
  "CA-NU": "Nunavut",
  "CA-ON": "Ontario",
  "CA-PE": "Prince Edward Island",
  "CA-QC": "Quebec",
  "CA-SK": "Saskatchewan",
  "CA-YT": "Yukon",
};

let names: Intl.DisplayNames | undefined;
export function countryName(code: string): string {
  names ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  return names.of(code) ?? code;
}

export const regionName = (code: string) => REGION_NAMES[code] ?? code;

const COUNTRY = /^[A-Z]{2}$/;
const REGION = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

/** Parses the configuration text; a string result is what is wrong with it. */
export function parseJurisdictions(text: string): Jurisdictions | string {
  const countries = new Set<string>();
  const regions: Record<string, string[]> = {};
  for (const raw of text.split(",")) {
    const code = raw.trim().toUpperCase();
    if (!COUNTRY.test(code) && !REGION.test(code)) return `expected country codes like GB or regions like US-NJ, separated by commas`;
    const country = code.slice(0, 2);
    if (!COUNTRY_CODES.includes(country)) return `${country} is not an ISO 3166-1 country code`;
    if (code.length === 2) countries.add(country);
    else if (!(regions[country] ??= []).includes(code)) regions[country]!.push(code);
  }
  // A whole country already allows all of its regions.
  for (const country of countries) delete regions[country];
  return { countries: [...countries].sort(), regions };
}

/**
 * The configuration as the database's place rule takes it: whole countries, and regions
 * ("US-NJ", "CA-ON") in one list. Whether a player whose recorded home is a country (and
 * region) may still play and buy is decided by may_play_from
 * (prisma/sql/functions/may_play_from.sql) alone, at entry and in the reads that show or
 * check it: a place the operator removes from ALLOWED_COUNTRIES after the player signed up
 * no longer is.
 */
export type Places = { countries: string[]; regions: string[] };

export const placesServed = (allowed: Jurisdictions): Places => ({ countries: allowed.countries, regions: allowedRegionCodes(allowed) });

/** Every region allowed on its own ("US-NJ", "CA-ON"), in one list. */
export const allowedRegionCodes = (allowed: Jurisdictions): string[] => Object.values(allowed.regions).flat();

/** What a player is told when the place they live is no longer one the site serves. */
export const JURISDICTION_CLOSED_MESSAGE =
  "Raffle Rush is no longer available where you live. Playing and buying are closed; you can still see your balance and withdraw.";

export type JurisdictionCheck = { ok: true; country: string; region: string | null } | { ok: false; field: "country" | "region"; message: string };

const list = (items: string[]) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** Whether a player living in `country` (and `region`) may play here, with a message when not. */
export function checkJurisdiction(allowed: Jurisdictions, country: string, region: string | undefined): JurisdictionCheck {
  if (!COUNTRY_CODES.includes(country)) return { ok: false, field: "country", message: "Choose the country where you live." };
  if (allowed.countries.includes(country)) return { ok: true, country, region: null };
  const regions = allowed.regions[country];
  if (!regions) {
    return {
      ok: false,
      field: "country",
      message: `Sorry, Raffle Rush is not available in ${countryName(country)}. We can only accept players where we are licensed.`,
    };
  }
  if (region && regions.includes(region)) return { ok: true, country, region };
  return {
    ok: false,
    field: "region",
    message: `Sorry, in ${countryName(country)} Raffle Rush is only available in ${list(regions.map(regionName))}.`,
  };
}

/** The choices for the sign-up form: every country by name, and the regions of region-limited ones. */
export function jurisdictionChoices(allowed: Jurisdictions) {
  return {
    countries: COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name, "en")),
    regions: Object.entries(allowed.regions).map(([country, codes]) => ({
      country,
      name: countryName(country),
      regions: codes.map((code) => ({ code, name: regionName(code) })),
    })),
  };
}

/** The sign-up and onboarding form fields (the check against the configuration is the server's). */
export const residenceFields = {
  country: z.string({ message: "Choose the country where you live." }).regex(/^[A-Z]{2}$/, "Choose the country where you live."),
  region: z
    .string()
    .regex(/^[A-Z]{2}-[A-Z0-9]{1,5}$/, "Choose your state or province.")
    .optional(),
};

/**
 * What a jurisdiction asks of a player beyond being allowed (PRODUCT.md "Know your player";
 * ADR 080), as data beside ALLOWED_COUNTRIES. Everywhere, identity is verified before the
 * withdrawal threshold (POLICY.identityCheckAboveCoins); a country listed here may ask more.
 */
export type JurisdictionRules = {
  /** Identity verified before the first deposit. */
  verifyBeforeDeposit: boolean;
  /** Identity verified before any entry into a raffle. */
  verifyBeforeEntry: boolean;
  /** Credit cards refused for gambling. */
  creditCardsBanned: boolean;
  /** Why, in the player's words. */
  why: string | null;
};

export const JURISDICTION_RULES: Record<string, JurisdictionRules> = {
  GB: {
    verifyBeforeDeposit: true,
    verifyBeforeEntry: true,
    creditCardsBanned: true,
    why: "The law in Great Britain requires us to check your age and identity before you deposit or play, and bans paying for gambling with a credit card.",
  },
};

const NO_RULES: JurisdictionRules = { verifyBeforeDeposit: false, verifyBeforeEntry: false, creditCardsBanned: false, why: null };

export const rulesFor = (country: string | null | undefined): JurisdictionRules => (country && JURISDICTION_RULES[country]) || NO_RULES;

/** The countries whose players verify identity before any entry: enter_raffles refuses the rest there. */
export const countriesVerifyingBeforeEntry = (): string[] =>
  Object.entries(JURISDICTION_RULES)
    .filter(([, rules]) => rules.verifyBeforeEntry)
    .map(([country]) => country);

/** What an unverified player is told where identity comes first. */
export const IDENTITY_FIRST_MESSAGE =
  "Please verify your identity first (on the Verify your identity page, /verify): where you live, the law requires it before you deposit or play.";
