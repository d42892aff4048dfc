import { describe, expect, it } from "vitest";
import { readSettings, writeSetting } from "./local-settings";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe("device settings", () => {
  it("default to the spec's values", () => {
    expect(readSettings(memoryStorage())).toEqual({
      theme: "light",
      emailNotifications: true,
      soundEffects: true,
      quickRaffleNotifications: true,
      autoEnterFavorites: false,
    });
  });

  it("turn off only on a stored false, auto-enter on only on a stored true, dark only on a stored dark", () => {
    const storage = memoryStorage({ emailNotifications: "false", soundEffects: "0", autoEnterFavorites: "yes", theme: "blue" });
    expect(readSettings(storage)).toMatchObject({ emailNotifications: false, soundEffects: true, autoEnterFavorites: false, theme: "light" });
    writeSetting(storage, "autoEnterFavorites", true);
    writeSetting(storage, "theme", "dark");
    expect(readSettings(storage)).toMatchObject({ autoEnterFavorites: true, theme: "dark" });
  });
});
