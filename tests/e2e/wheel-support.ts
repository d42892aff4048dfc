import type { Page } from "@playwright/test";
import { prizeUnderPointer, rotationOf } from "../../app/shared/spin-wheel";

/** The wheel's rewards in the browser suites (the default SPIN_WHEEL_WEIGHTS). */
export const PRIZES = [5, 10, 25, 50];

/** The prize under the pointer, read two ways: from the wheel's computed rotation, and from what lies under the pointer's tip. */
export async function underThePointer(page: Page): Promise<{ byAngle: number; byPoint: number; inlineAngle: number }> {
  const disc = page.getByTestId("wheel-disc");
  await disc.scrollIntoViewIfNeeded();
  const tip = (await page.getByTestId("wheel-pointer").boundingBox())!;
  const read = await disc.evaluate(
    (element, point) => {
      const hit = document.elementFromPoint(point.x, point.y)?.closest("[data-prize]");
      return {
        computed: getComputedStyle(element).transform,
        inline: (element as HTMLElement).style.transform,
        prize: hit?.getAttribute("data-prize") ?? null,
      };
    },
    // Just below the pointer's tip, inside the wheel.
    { x: tip.x + tip.width / 2, y: tip.y + tip.height + 16 },
  );
  return { byAngle: prizeUnderPointer(PRIZES, rotationOf(read.computed)), byPoint: Number(read.prize), inlineAngle: Number(/-?[\d.]+/.exec(read.inline)?.[0]) };
}
