import { useMatches } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { parseDollars } from "~/shared/money";
import { useOptionalUser } from "./use-root-data";
import { useAllToldTickets } from "./entry-answers";

/** The live stream's draw, as use-live-updates passes it on (see DRAWN_EVENT). */
export type DrawnEvent = { raffleId: string; kind: string; outcome: "completed" | "cancelled"; winner?: string; winnerIsDemo?: boolean; prize?: string };

/** The window event use-live-updates dispatches for every draw it hears. */
export const DRAWN_EVENT = "raffle:drawn";

let audio: AudioContext | undefined;

/**
 * A short sound made on the spot with Web Audio (no file to load): two rising notes for a
 * win, one soft note for any other draw of a round the player entered.
 */
export function playOutcomeSound(kind: "win" | "draw"): void {
  if (typeof AudioContext === "undefined") return;
  audio ??= new AudioContext();
  if (audio.state === "suspended") void audio.resume();
  const notes = kind === "win" ? [660, 990] : [440];
  notes.forEach((frequency, i) => {
    const start = audio!.currentTime + i * 0.12;
    const oscillator = audio!.createOscillator();
    const gain = audio!.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, start);
    gain.gain.exponentialRampToValueAtTime(0.001, start + 0.25);
    oscillator.connect(gain).connect(audio!.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.25);
  });
}

/** What a notification says about a round the player entered. */
export function drawnMessage(event: DrawnEvent, me: string | null): { title: string; body: string } {
  if (event.outcome === "cancelled") return { title: "Quick raffle cancelled", body: "Fewer than two players joined: your entry was refunded." };
  const coins = (parseDollars(event.prize ?? "0") ?? 0n).toLocaleString("en-US");
  if (me !== null && event.winner === me) return { title: "You won!", body: `Congratulations! You won ${coins} coins!` };
  return {
    title: "Quick raffle drawn",
    body: `${event.winner ?? "A player"}${event.winnerIsDemo ? " (demo player)" : ""} won ${coins} coins. Better luck next round!`,
  };
}

/** The raffles on the page's data that the player holds tickets in (home, quick: `raffles[].myTickets`). */
function enteredRaffles(matches: ReturnType<typeof useMatches>): string[] {
  const ids: string[] = [];
  for (const match of matches) {
    const raffles = (match.data as { raffles?: unknown } | undefined)?.raffles;
    if (!Array.isArray(raffles)) continue;
    for (const raffle of raffles as { id?: unknown; myTickets?: unknown }[]) {
      if (typeof raffle.id === "string" && typeof raffle.myTickets === "number" && raffle.myTickets > 0) ids.push(raffle.id);
    }
  }
  return ids;
}

/**
 * Tells the player, as their settings ask, that a round they entered was drawn:
 * a short sound (sound effects) and, for quick rounds, a browser notification (quick
 * raffle notifications, once the browser's permission is granted). Rounds entered are
 * remembered while the page lives, because a drawn round leaves the page's data; a card's
 * entry tells its round without a reload (EntryAnswers). Each round is told once: a stream
 * opened again sends the draws heard just before its page was read a second time (ADR 104).
 */
export function OutcomeSignals() {
  const user = useOptionalUser();
  const matches = useMatches();
  const entered = useRef(new Set<string>());
  const told = useRef(new Set<string>());
  // The page's data, and the cards' answers: an entry does not load the data again (ADR 093).
  const enteredNow = [...enteredRaffles(matches), ...useAllToldTickets().keys()].join(" ");
  useEffect(() => {
    for (const id of enteredNow.split(" ")) if (id && !told.current.has(id)) entered.current.add(id);
  }, [enteredNow]);
  const settings = user?.settings;
  const me = user?.username ?? null;
  const latest = useRef({ settings, me });
  useEffect(() => {
    latest.current = { settings, me };
  }, [settings, me]);

  useEffect(() => {
    const onDrawn = (event: Event) => {
      const drawn = (event as CustomEvent<DrawnEvent>).detail;
      if (!entered.current.has(drawn.raffleId)) return;
      entered.current.delete(drawn.raffleId);
      told.current.add(drawn.raffleId);
      const { settings, me } = latest.current;
      if (!settings) return;
      if (settings.soundEffects) playOutcomeSound(drawn.outcome === "completed" && me !== null && drawn.winner === me ? "win" : "draw");
      if (settings.quickRaffleNotifications && drawn.kind === "quick" && typeof Notification !== "undefined" && Notification.permission === "granted") {
        const { title, body } = drawnMessage(drawn, me);
        new Notification(title, { body, tag: `raffle-${drawn.raffleId}` });
      }
    };
    window.addEventListener(DRAWN_EVENT, onDrawn);
    return () => window.removeEventListener(DRAWN_EVENT, onDrawn);
  }, []);
  return null;
}
