/**
 * The device settings the spec keeps in browser storage, with its defaults:
 * notifications and sound on unless stored "false", auto-enter off unless stored
 * "true", theme light unless stored "dark".
 */
export type LocalSettings = {
  theme: "light" | "dark";
  emailNotifications: boolean;
  soundEffects: boolean;
  quickRaffleNotifications: boolean;
  autoEnterFavorites: boolean;
};

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

export function readSettings(storage: Storage): LocalSettings {
  return {
    theme: storage.getItem("theme") === "dark" ? "dark" : "light",
    emailNotifications: storage.getItem("emailNotifications") !== "false",
    soundEffects: storage.getItem("soundEffects") !== "false",
    quickRaffleNotifications: storage.getItem("quickRaffleNotifications") !== "false",
    autoEnterFavorites: storage.getItem("autoEnterFavorites") === "true",
  };
}

export function writeSetting<K extends keyof LocalSettings>(storage: Storage, key: K, value: LocalSettings[K]): void {
  storage.setItem(key, String(value));
}
