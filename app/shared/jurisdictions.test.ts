import { describe, expect, it } from "vitest";
import { checkJurisdiction, jurisdictionChoices, parseJurisdictions, placesServed, type Jurisdictions } from "./jurisdictions";

const allowed = parseJurisdictions("GB,MT,US-NJ,US-PA") as Jurisdictions;

describe("jurisdictions", () => {
  it("parses countries and regions, a whole country absorbing its regions", () => {
    expect(parseJurisdictions(" gb ,US-NJ,us")).toEqual({ countries: ["GB", "US"], regions: {} });
    expect(allowed).toEqual({ countries: ["GB", "MT"], regions: { US: ["US-NJ", "US-PA"] } });
    expect(parseJurisdictions("GB;FR")).toMatch(/expected country codes/);
    expect(parseJurisdictions("ZQ")).toMatch(/ZQ is not an ISO 3166-1 country code/);
  });

  it("allows a listed country anywhere, and a region-limited one only in its regions", () => {
    expect(checkJurisdiction(allowed, "GB", undefined)).toEqual({ ok: true, country: "GB", region: null });
    expect(checkJurisdiction(allowed, "GB", "US-NJ")).toEqual({ ok: true, country: "GB", region: null });
    expect(checkJurisdiction(allowed, "US", "US-NJ")).toEqual({ ok: true, country: "US", region: "US-NJ" });
  });

  it("passes the configuration to the database's place rule as whole countries and regions (tests/integration/rule-owners.test.ts)", () => {
    expect(placesServed(allowed)).toEqual({ countries: ["GB", "MT"], regions: ["US-NJ", "US-PA"] });
  });

  it("refuses the others with a message naming where the site is available", () => {
    expect(checkJurisdiction(allowed, "FR", undefined)).toEqual({
      ok: false,
      field: "country",
      message: "Sorry, Raffle Rush is not available in France. We can only accept players where we are licensed.",
    });
    expect(checkJurisdiction(allowed, "US", "US-TX")).toEqual({
      ok: false,
      field: "region",
      message: "Sorry, in United States Raffle Rush is only available in New Jersey and Pennsylvania.",
    });
    expect(checkJurisdiction(allowed, "US", undefined)).toMatchObject({ ok: false, field: "region" });
    expect(checkJurisdiction(allowed, "ZZ", undefined)).toMatchObject({ ok: false, field: "country" });
  });

  it("offers every country by name and the regions of region-limited ones", () => {
    const choices = jurisdictionChoices(allowed);
    expect(choices.countries.length).toBeGreaterThan(240);
    expect(choices.countries).toContainEqual({ code: "FR", name: "France" });
    expect(choices.regions).toEqual([
      {
        country: "US",
        name: "United States",
        regions: [
          { code: "US-NJ", name: "New Jersey" },
          { code: "US-PA", name: "Pennsylvania" },
        ],
      },
    ]);
  });
});
