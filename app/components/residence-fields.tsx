import { useEffect, useRef, useState } from "react";
import { Field, inputClass } from "./form-fields";
import { useHydrated } from "./use-hydrated";

export type ResidenceChoices = {
  countries: { code: string; name: string }[];
  regions: { country: string; name: string; regions: { code: string; name: string }[] }[];
};

type FieldState = { id: string; name: string; errors?: string[]; initialValue?: string };

/**
 * Country and region of residence. Without JavaScript both selects show (the region one
 * grouped by country); with it, the region select shows only for a country the site takes
 * in some regions only.
 */
export function ResidenceFields({
  choices,
  country,
  region,
  focus,
}: {
  choices: ResidenceChoices;
  country: FieldState;
  region: FieldState;
  /** The form's first field in error, focused when it is one of these (a refused form's page). */
  focus?: string;
}) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState(country.initialValue ?? "");
  const countrySelect = useRef<HTMLSelectElement>(null);
  // A choice made before the page's JavaScript ran.
  useEffect(() => setSelected(countrySelect.current?.value ?? ""), []);
  // With JavaScript the region select hides (but stays, keeping its value) for other countries.
  const hideRegion = hydrated && !choices.regions.some((group) => group.country === selected);
  return (
    <>
      <Field label="Country where you live" id={country.id} errors={country.errors}>
        <select
          ref={countrySelect}
          {...(focus === "country" ? { autoFocus: true } : {})}
          id={country.id}
          name={country.name}
          defaultValue={typeof country.initialValue === "string" ? country.initialValue : ""}
          onChange={(event) => setSelected(event.target.value)}
          autoComplete="country"
          required
          aria-invalid={country.errors?.length ? true : undefined}
          aria-describedby={country.errors?.length ? `${country.id}-error` : undefined}
          className={inputClass}
        >
          <option value="">Choose your country</option>
          {choices.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      {choices.regions.length > 0 ? (
        <div hidden={hideRegion}>
          <Field label="State or province" id={region.id} errors={region.errors} hint={`Only for ${choices.regions.map((g) => g.name).join(" and ")}.`}>
            <select
              {...(focus === "region" ? { autoFocus: true } : {})}
              id={region.id}
              name={region.name}
              defaultValue={typeof region.initialValue === "string" ? region.initialValue : ""}
              aria-invalid={region.errors?.length ? true : undefined}
              aria-describedby={region.errors?.length ? `${region.id}-error` : `${region.id}-hint`}
              className={inputClass}
            >
              <option value="">Choose your state or province</option>
              {choices.regions.map((group) => (
                <optgroup key={group.country} label={group.name}>
                  {group.regions.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.name}
                    </option>
                  ))}
                  <option value={`${group.country}-OTHER`}>Somewhere else in {group.name}</option>
                </optgroup>
              ))}
            </select>
          </Field>
        </div>
      ) : null}
    </>
  );
}
