/** How a draw is made and checked: docs/fairness.md, as players read it on /fair. */
export function FairAlgorithm() {
  const code = "rounded bg-sunken px-1 font-mono text-sm";
  return (
    <section aria-labelledby="algorithm-title" className="flex flex-col gap-3">
      <h2 id="algorithm-title" className="text-2xl font-bold">
        How every draw is made
      </h2>
      <p>
        We cannot pick a winner after seeing the tickets, and you do not have to take our word for it: every draw can be recomputed by anyone from its public
        record, in your browser or with a few lines of code of your own.
      </p>
      <ol className="flex list-decimal flex-col gap-3 pl-6">
        <li>
          <strong>Commit, when the raffle opens.</strong> The server draws a secret 32-byte seed from a cryptographically secure generator and publishes its
          fingerprint, <code className={code}>seedHash = SHA-256(seed)</code>. The seed cannot change afterwards without the fingerprint showing it.
        </li>
        <li>
          <strong>Tickets.</strong> Every ticket has a position 0, 1, 2, … in the order it was bought and a random ticket id. Ticket <em>i</em>&apos;s leaf is{" "}
          <code className={code}>SHA-256(0x00 ‖ &quot;raffleId:i:ticketId&quot;)</code>, and the entry digest is the Merkle root of the leaves in position
          order, built as in RFC 6962 (a node is <code className={code}>SHA-256(0x01 ‖ left ‖ right)</code>, split at the largest power of two below the count).
          Your own tickets come with their inclusion proof on the draw page.
        </li>
        <li>
          <strong>Draw, at the end time.</strong> Entry closes on the server. With <em>n</em> tickets, for counter = 0, 1, …:{" "}
          <code className={code}>x = HMAC-SHA256(key = seed, &quot;raffleId:root:counter&quot;)</code> read as a 256-bit number; the first <em>x</em> below{" "}
          <code className={code}>2^256 − (2^256 mod n)</code> gives the winning ticket <code className={code}>x mod n</code>. Discarding the top sliver removes
          modulo bias: every ticket has exactly the same chance. A raffle with fewer than two players is not drawn: it is cancelled and every ticket refunded.
        </li>
        <li>
          <strong>Prize.</strong> The winner receives half the pot, rounded down to a coin, times their VIP win multiplier (1 without VIP; 1.1, 1.2, 1.3, 1.5 or
          2 for bronze to diamond), never more than the whole pot. 1 coin = $0.01.
        </li>
        <li>
          <strong>Reveal, after the draw.</strong> The seed is published with the root, the tickets and the winning ticket. Check that SHA-256(seed) is the
          fingerprint published at the start, rebuild the root from the tickets and run step 3 again: each draw page does this in your browser.
        </li>
      </ol>
    </section>
  );
}
