import { describe, expect, it } from "vitest";
import { db } from "~/models/db.server";
import { call, cookiesFrom, pageText, sessionCookie } from "../support/app";
import { createTestUser } from "../support/factories";

const settingsOf = (id: string) =>
  db().user.findUniqueOrThrow({
    where: { id },
    select: { emailNotifications: true, soundEffects: true, quickRaffleNotifications: true, emailEntryReceipts: true },
  });

describe("settings", () => {
  it("start with email on, sound, browser notifications and email receipts off, and are kept on the account", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    expect(await settingsOf(player.id)).toEqual({ emailNotifications: true, soundEffects: false, quickRaffleNotifications: false, emailEntryReceipts: false });

    // The page's form (ADR 040): ticked boxes arrive as "on", unticked ones not at all; back with a toast.
    const saved = await call("/settings", {
      method: "POST",
      cookie,
      form: { soundEffects: "on" },
      headers: { Accept: "text/html", Referer: "http://localhost/settings" },
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/settings");
    expect(await pageText(await call("/settings", { cookie: `${cookie}; ${cookiesFrom(saved)}` }))).toContain("Settings saved");
    expect(await settingsOf(player.id)).toEqual({ emailNotifications: false, soundEffects: true, quickRaffleNotifications: false, emailEntryReceipts: false });
    const user = (await (await call("/api/auth/user", { cookie })).json()) as { settings: unknown };
    expect(user.settings).toEqual({ emailNotifications: false, soundEffects: true, quickRaffleNotifications: false, emailEntryReceipts: false });

    // A script: JSON back, whatever it asks for (ADR 040).
    const json = await call("/api/settings", {
      method: "POST",
      cookie,
      form: { emailNotifications: "true", soundEffects: "false", quickRaffleNotifications: "true" },
      headers: { Accept: "text/html" },
    });
    expect(await json.json()).toEqual({ emailNotifications: true, soundEffects: false, quickRaffleNotifications: true, emailEntryReceipts: false });
    const audit = await db().auditEvent.findMany({ where: { actor: player.id, action: "settings.update" } });
    expect(audit).toHaveLength(2);

    const page = await pageText(await call("/settings", { cookie }));
    expect(page).toContain("<h1");
    expect(page).toMatch(/name="emailNotifications"[^>]*checked/);
    expect(page).toContain("UK rules ban autoplay");
    expect(page).not.toContain("Auto-enter favorite raffles");
  });

  it("refuse anything but on or off, changing nothing", async () => {
    const player = await createTestUser();
    const cookie = await sessionCookie(player.id);
    const response = await call("/api/settings", { method: "POST", cookie, form: { soundEffects: "loud" }, headers: { Accept: "application/json" } });
    expect(response.status).toBe(400);
    expect(await settingsOf(player.id)).toEqual({ emailNotifications: true, soundEffects: false, quickRaffleNotifications: false, emailEntryReceipts: false });
    expect((await call("/api/settings", { method: "POST", form: { soundEffects: "on" }, headers: { Accept: "application/json" } })).status).toBe(401);
  });

  it("set the theme cookie and go back to the page, refusing any other theme with a 400 that sets nothing", async () => {
    const dark = await call("/theme", { method: "POST", form: { theme: "dark" }, headers: { Referer: "http://localhost/vip" } });
    expect(dark.status).toBe(302);
    expect(dark.headers.get("Location")).toBe("/vip");
    expect(cookiesFrom(dark)).toBe("theme=ImRhcmsi");
    expect((await call("/theme", { method: "POST", form: { theme: "light", redirectTo: "//evil.example" } })).headers.get("Location")).toBe("/");
    for (const form of [{ theme: "blue" }, { theme: "" }, {}] as Record<string, string>[]) {
      const refused = await call("/theme", { method: "POST", form });
      expect(refused.status).toBe(400);
      expect(refused.headers.getSetCookie()).toEqual([]);
      expect(await refused.json()).toEqual({ message: "Theme must be light or dark" });
    }
  });
});
