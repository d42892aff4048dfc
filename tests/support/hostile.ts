import fc from "fast-check";

/**
 * Generated hostile input for the request fuzzers (tests/integration/hostile-input.test.ts):
 * values that break naive parsing (negative, fractional, huge, NaN-like, arrays, objects,
 * `__proto__`, nesting thousands deep, out-of-range, impossible and signed dates), sent in
 * every encoding a client can choose, right or wrong.
 */

/** Generated cases per route: a few in `npm test`, 200 in `npm run test:reliability`, or FUZZ_RUNS. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? (process.env.RELIABILITY === "long" ? 200 : 12));

const NUMBER_LIKE = [
  "NaN",
  "-NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "1e-7",
  "-0",
  "0",
  "-1",
  "-10",
  "0.001",
  "10.005",
  "10.1.1",
  "0x1F",
  "0b11",
  "1_000",
  " 10 ",
  "10\u0000",
  "١٠",
  "１０",
  "9".repeat(40),
  "9007199254740993",
  "-9223372036854775809",
  "$10",
  "10,00",
  "1e2",
  ".5",
  "5.",
  "+5",
  "--5",
  "",
];
const STRING_LIKE = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "\u0000",
  "\uD800",
  "𝟘𝟙",
  "\u202Eevil",
  "a".repeat(5000),
  " ",
];
/** Dates a naive `new Date(text)` misreads or a database refuses: out of range, impossible, signed or six-digit years. */
export const DATE_LIKE = [
  "9999-99-99",
  "0000-01-01",
  "-000001-01-01",
  "+275760-09-13",
  "275760-09-14",
  "1990-02-30",
  "2023-02-29",
  "1990-13-01",
  "1990-00-10",
  "1899-12-31",
  "10000-01-01",
  "1990-1-1",
  "1990-01-01T00:00:00Z",
  "01/02/1990",
  "9999-12-31",
];

/**
 * JSON text sent as it is: arrays nested thousands deep, which JSON.stringify cannot write
 * on a test worker's stack but a server's JSON.parse reads (5,000 deep is a 10 KB body).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export function nestedArrays(depth: number): RawJson {
  return new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`);
}
const DEEP = nestedArrays(5000);

/** JSON text of a generated value, RawJson written as is. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** One hostile JSON value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer({ min: -2_000_000_000, max: -1 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 63, 2 ** 64, 0, -0, 0.1 + 0.2, 5e-324),
    { weight: 2, arbitrary: fc.constantFrom(...NUMBER_LIKE) },
    { weight: 3, arbitrary: fc.constantFrom(...STRING_LIKE) },
    { weight: 2, arbitrary: fc.constantFrom(...DATE_LIKE) },
    fc.integer({ min: 2, max: 6000 }).map(nestedArrays),
    fc.string({ maxLength: 30 }),
    fc.constantFrom(null, true, false),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("__proto__", "constructor", "amount", "id", "isAdmin", "x"), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/**
 * The values each field is tried with on its own, the others left plausible (fast-check
 * `examples`, run before the random cases): prototype names, NUL, out-of-range numbers,
 * shapes, and the values that once found a 500.
 */
export const NASTY: unknown[] = [
  "__proto__",
  "constructor",
  "toString",
  "x\u0000y",
  -1,
  0.5,
  1e308,
  "NaN",
  [],
  { __proto__: null, a: 1 },
  "9999-99-99",
  "0000-01-01",
  "-000001-01-01",
  "1990-02-30",
  // Each found a 500 once: a page number past 2^53, a redirect path a Location header
  // cannot carry, half of a surrogate pair (jsonb refuses it), a cursor in year 0.
  "18446744073709552000",
  "/raffles/€",
  "x\ud800y",
  "0000-01-01T00:00:00.000Z_00000000-0000-4000-8000-000000000000",
  DEEP,
];

/** A value as a test label shows it (a 5,000-deep array is not spelled out). */
function shown(value: unknown): string {
  const text = toJson(value);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
}

/**
 * Per field and nasty value, every other field given its first plausible value: one JSON
 * body and one form body (the form routes refuse JSON with a 415 before reading a field).
 */
export function nastyBodies(names: string[], plausible: Record<string, unknown[]> = {}): HostileBody[] {
  const base = names.filter((n) => plausible[n]?.length).map((n) => [n, plausible[n]![0]] as [string, unknown]);
  return names.flatMap((name) =>
    NASTY.flatMap((value) => {
      const entries: [string, unknown][] = [...base.filter(([n]) => n !== name), [name, value]];
      return [
        { label: `json, ${name} = ${shown(value)}`, body: jsonObject(entries), contentType: "application/json" },
        { label: `form, ${name} = ${shown(value)}`, body: urlEncoded(entries), contentType: "application/x-www-form-urlencoded" },
      ];
    }),
  );
}

/** One query string per parameter and nasty value. */
export function nastyQueries(names: string[]): string[] {
  return names.flatMap((name) => NASTY.map((value) => `?${urlEncoded([[name, value]])}`));
}

/** A body's fields: the route's own names (each maybe present, with a plausible or hostile value) plus hostile extras. */
export function hostileFields(names: string[], plausible: Record<string, unknown[]> = {}): fc.Arbitrary<[string, unknown][]> {
  const field = (name: string) =>
    fc
      .option(plausible[name]?.length ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...plausible[name]!) }, hostileValue) : hostileValue, {
        nil: undefined,
        freq: 4,
      })
      .map((value) => (value === undefined ? [] : [[name, value] as [string, unknown]]));
  const extras = fc.array(fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "isAdmin", "userId", "coins", "amount"), hostileValue), {
    maxLength: 2,
  });
  return fc.tuple(fc.tuple(...names.map(field)), extras).map(([own, extra]) => [...own.flat(), ...extra]);
}

/** JSON text with the entries in order, `__proto__` kept as an own key (as JSON.parse would read it). */
function jsonObject(entries: [string, unknown][]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")}}`;
}

function formText(value: unknown): string {
  return typeof value === "string" ? value : toJson(value);
}

function urlEncoded(entries: [string, unknown][]): string {
  const params = new URLSearchParams();
  for (const [k, v] of entries) {
    if (Array.isArray(v)) for (const item of v) params.append(k, formText(item));
    else params.append(k, formText(v));
  }
  return params.toString();
}

export type HostileBody = { label: string; body?: BodyInit; contentType?: string };

/** The same fields, encoded every way a client might send them, right or wrong. */
export function hostileBody(entries: [string, unknown][]): fc.Arbitrary<HostileBody> {
  const json = jsonObject(entries);
  const form = urlEncoded(entries);
  const multipart = () => {
    const data = new FormData();
    for (const [k, v] of entries) data.append(k, formText(v));
    return data;
  };
  return fc
    .constantFrom<() => HostileBody>(
      () => ({ label: "json", body: json, contentType: "application/json" }),
      () => ({ label: "json array", body: `[${json}]`, contentType: "application/json" }),
      () => ({ label: "json scalar", body: "-1e309", contentType: "application/json" }),
      () => ({ label: "json null", body: "null", contentType: "application/json" }),
      () => ({ label: "json, 5,000 nested arrays", body: `${"[".repeat(5000)}${"]".repeat(5000)}`, contentType: "application/json" }),
      () => ({ label: "json, 5,000 nested objects", body: `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`, contentType: "application/json" }),
      () => ({
        label: "json, fields beside 5,000 nested arrays",
        body: `${json.slice(0, -1)}${json.length > 2 ? "," : ""}"deep":${"[".repeat(5000)}${"]".repeat(5000)}}`,
        contentType: "application/json",
      }),
      () => ({ label: "truncated json", body: json.slice(0, Math.max(1, json.length - 2)), contentType: "application/json" }),
      () => ({ label: "json in utf-16 label", body: json, contentType: "application/json; charset=utf-16" }),
      () => ({ label: "form", body: form, contentType: "application/x-www-form-urlencoded" }),
      () => ({ label: "multipart", body: multipart() }),
      () => ({ label: "multipart without boundary", body: form, contentType: "multipart/form-data" }),
      () => ({
        label: "multipart with a wrong boundary",
        body: "--x\r\nContent-Disposition: form-data\r\n\r\n1",
        contentType: "multipart/form-data; boundary=y",
      }),
      () => ({ label: "json labelled form", body: json, contentType: "application/x-www-form-urlencoded" }),
      () => ({ label: "form labelled json", body: form || "a=1", contentType: "application/json" }),
      () => ({ label: "text/plain", body: json, contentType: "text/plain" }),
      () => ({ label: "xml", body: '<?xml version="1.0"?><a>1</a>', contentType: "application/xml" }),
      () => ({ label: "no content type", body: json }),
      () => ({ label: "binary", body: new Uint8Array([0xff, 0xfe, 0x00, 0x81, 0xc3]), contentType: "application/octet-stream" }),
      () => ({ label: "empty" }),
    )
    .map((make) => make());
}

/** Hostile path parameters (encoded as a browser would), with known ids mixed in to reach deeper code. */
export function hostileParam(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    fc.constantFrom(
      "00000000-0000-4000-8000-000000000000",
      "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF",
      "__proto__",
      "-1",
      "NaN",
      "1e309",
      "..",
      "%2e%2e",
      "a".repeat(300),
    ),
    fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  );
}

/** A hostile query string over the names a loader reads (and some it does not). */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const keys = [...names, "__proto__", "page", "q"];
  return fc.array(fc.tuple(fc.constantFrom(...keys), hostileValue), { maxLength: 4 }).map((entries) => (entries.length ? `?${urlEncoded(entries)}` : ""));
}

/** Headers a client controls that the app reads. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      Accept: fc.constantFrom("application/json", "text/html", "*/*", "application/json, text/html", "garbage/"),
      Referer: fc.constantFrom(
        "http://localhost/withdraw",
        "not a url",
        "http://[::1",
        "javascript:alert(1)",
        "http://localhost//evil.example",
        "http://evil.example/",
      ),
      "Idempotency-Key": fc.constantFrom("fuzz-key", "", " ", "x".repeat(300), "clé\u00ff", "__proto__"),
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>);

/** Plausible values the route table (tests/integration/hostile-input.test.ts) sends beside the nasty ones. */
export const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
export const MONEY = [10, "10", "10.00", 25.5, "1000", 100];
export const COMPLAINT_FIELDS = ["subject", "reference", "message", "requestId"];
export const COMPLAINT_PLAUSIBLE = {
  subject: ["draw", "payout", "other"],
  reference: [UNKNOWN_ID],
  message: ["The draw looks wrong to me."],
  requestId: ["fuzz-token-1"],
};
